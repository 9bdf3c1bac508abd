import Foundation
import OpenCoreMedia

// The result codes of Core Audio's audio converter (AudioToolbox's AudioConverter.h), with
// Apple's values, which `AVAudioConverter` reports in `NSOSStatusErrorDomain`.

/// The formats cannot be converted (`'fmt?'`).
public let kAudioConverterErr_FormatNotSupported: OSStatus = 0x666D_743F
/// The operation is not supported, such as a rate change through `convert(to:from:)` (`'op??'`).
public let kAudioConverterErr_OperationNotSupported: OSStatus = 0x6F70_3F3F
/// The input is too large or has a size the format does not allow (`'insz'`).
public let kAudioConverterErr_InvalidInputSize: OSStatus = 0x696E_737A
/// The output buffer is too small for the conversion (`'otsz'`).
public let kAudioConverterErr_InvalidOutputSize: OSStatus = 0x6F74_737A

extension AVAudioConverter {
    /// An error of `status` in `NSOSStatusErrorDomain`, saying why.
    static func error(_ status: OSStatus, _ reason: String) -> NSError {
        NSError(domain: NSOSStatusErrorDomain, code: Int(status), userInfo: [NSLocalizedFailureReasonErrorKey: reason])
    }

    /// `error` when it is one of these already, else `kAudioConverterErr_FormatNotSupported`
    /// saying what failed (an engine error).
    static func error(reporting error: Error) -> NSError {
        let bridged = error as NSError
        if bridged.domain == NSOSStatusErrorDomain { return bridged }
        return self.error(kAudioConverterErr_FormatNotSupported, "\(error)")
    }
}
