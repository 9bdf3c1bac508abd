/// The rooms an `AVAudioUnitReverb` can sound like, with Apple's values.
public enum AVAudioUnitReverbPreset: Int, Sendable {
    case smallRoom = 0
    case mediumRoom = 1
    case largeRoom = 2
    case mediumHall = 3
    case largeHall = 4
    case plate = 5
    case mediumChamber = 6
    case largeChamber = 7
    case cathedral = 8
    case largeRoom2 = 9
    case mediumHall2 = 10
    case mediumHall3 = 11
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
