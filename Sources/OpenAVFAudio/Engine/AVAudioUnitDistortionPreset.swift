/// The distortions an `AVAudioUnitDistortion` can make, with Apple's values. Apple does not
/// document what each does; here each is a chain of libavfilter's filters named for what the
/// preset's name says (`chain`).
public enum AVAudioUnitDistortionPreset: Int, Sendable {
    /// Coarse bit reduction (6 bits).
    case drumsBitBrush = 0
    /// Sample-rate reduction by 8.
    case drumsBufferBeats = 1
    /// 8 bits, a quarter of the sample rate, darkened.
    case drumsLoFi = 2
    /// A narrow band, hard clipped.
    case multiBrokenSpeaker = 3
    /// A telephone band, soft clipped.
    case multiCellphoneConcert = 4
    /// Sample-rate reduction by 2.
    case multiDecimated1 = 5
    /// Sample-rate reduction by 4.
    case multiDecimated2 = 6
    /// Sample-rate reduction by 8.
    case multiDecimated3 = 7
    /// Sample-rate reduction by 16.
    case multiDecimated4 = 8
    /// Arctangent clipping, driven.
    case multiDistortedFunk = 9
    /// Cubic soft clipping, driven.
    case multiDistortedCubed = 10
    /// Algebraic soft clipping, driven hard.
    case multiDistortedSquared = 11
    /// An echo at 100 ms.
    case multiEcho1 = 12
    /// An echo at 250 ms.
    case multiEcho2 = 13
    /// A tight echo at 30 ms.
    case multiEchoTight1 = 14
    /// A tight echo at 15 ms.
    case multiEchoTight2 = 15
    /// Bit and rate reduction, hard clipping and an echo.
    case multiEverythingIsBroken = 16
    /// A fast phaser over a bit-reduced voice.
    case speechAlienChatter = 17
    /// A phaser and an echo.
    case speechCosmicInterference = 18
    /// 8 bits at a third of the sample rate.
    case speechGoldenPi = 19
    /// A radio's band, hard clipped.
    case speechRadioTower = 20
    /// A slow phaser.
    case speechWaves = 21

    /// The libavfilter chain of the preset's distortion.
    var chain: String {
        switch self {
        case .drumsBitBrush: "acrusher=bits=6:mix=1"
        case .drumsBufferBeats: "acrusher=samples=8:mix=1"
        case .drumsLoFi: "acrusher=bits=8:samples=4:mix=1,lowpass=f=5000"
        case .multiBrokenSpeaker: "highpass=f=400,lowpass=f=3000,volume=12dB,asoftclip=type=hard:threshold=0.5"
        case .multiCellphoneConcert: "highpass=f=300,lowpass=f=3400,volume=6dB,asoftclip=type=tanh"
        case .multiDecimated1: "acrusher=samples=2:mix=1"
        case .multiDecimated2: "acrusher=samples=4:mix=1"
        case .multiDecimated3: "acrusher=samples=8:mix=1"
        case .multiDecimated4: "acrusher=samples=16:mix=1"
        case .multiDistortedFunk: "volume=18dB,asoftclip=type=atan"
        case .multiDistortedCubed: "volume=18dB,asoftclip=type=cubic"
        case .multiDistortedSquared: "volume=24dB,asoftclip=type=alg"
        case .multiEcho1: "aecho=0.8:0.8:100:0.5"
        case .multiEcho2: "aecho=0.8:0.8:250:0.5"
        case .multiEchoTight1: "aecho=0.8:0.8:30:0.5"
        case .multiEchoTight2: "aecho=0.8:0.8:15:0.5"
        case .multiEverythingIsBroken: "acrusher=bits=4:samples=8:mix=1,volume=6dB,asoftclip=type=hard:threshold=0.5,aecho=0.8:0.8:60:0.4"
        case .speechAlienChatter: "acrusher=bits=8:mix=1,aphaser=speed=2:decay=0.6"
        case .speechCosmicInterference: "aphaser=speed=1:decay=0.7,aecho=0.8:0.8:80:0.4"
        case .speechGoldenPi: "acrusher=bits=8:samples=3:mix=1"
        case .speechRadioTower: "highpass=f=500,lowpass=f=2500,volume=9dB,asoftclip=type=hard:threshold=0.6"
        case .speechWaves: "aphaser=speed=0.3:decay=0.5"
        }
    }
}
