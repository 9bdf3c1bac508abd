/// The rooms an `AVAudioUnitReverb` can sound like, with Apple's values.
public enum AVAudioUnitReverbPreset: Int, Sendable {
    /// A small room (0.4 s to fall 60 dB).
    case smallRoom = 0
    /// A medium room (0.7 s).
    case mediumRoom = 1
    /// A large room (1.2 s).
    case largeRoom = 2
    /// A medium hall (1.8 s).
    case mediumHall = 3
    /// A large hall (2.5 s).
    case largeHall = 4
    /// A plate reverb (1.5 s).
    case plate = 5
    /// A medium chamber (1.0 s).
    case mediumChamber = 6
    /// A large chamber (1.6 s).
    case largeChamber = 7
    /// A cathedral (4 s).
    case cathedral = 8
    /// A second large room (1.4 s).
    case largeRoom2 = 9
    /// A second medium hall (2.0 s).
    case mediumHall2 = 10
    /// A third medium hall (2.2 s).
    case mediumHall3 = 11
    /// A second large hall (3.0 s).
    case largeHall2 = 12

    /// The time the room's reverberation takes to fall by 60 dB, in seconds.
    var decayTime: Double {
        switch self {
        case .smallRoom: 0.4
        case .mediumRoom: 0.7
        case .largeRoom: 1.2
        case .largeRoom2: 1.4
        case .mediumChamber: 1.0
        case .largeChamber: 1.6
        case .plate: 1.5
        case .mediumHall: 1.8
        case .mediumHall2: 2.0
        case .mediumHall3: 2.2
        case .largeHall: 2.5
        case .largeHall2: 3.0
        case .cathedral: 4.0
        }
    }
}
