import Foundation
import HostSystem
import OpenCoreMedia

/// The delivery loop of the virtual microphones: sample `n` lies at exactly `n / rate` seconds
/// of host time, and each buffer is delivered on the device thread when the host clock reaches
/// the end of its last sample, as a real device delivers audio once it has been recorded.
/// Deadlines are absolute (`clock_nanosleep(TIMER_ABSTIME)`), so there is no drift; each buffer
/// starts exactly where the previous one ended. A late thread catches up by delivering every
/// overdue buffer; only when more than half a second behind does it skip, reporting the skipped
/// buffers in `drops` (as `.late`).
enum HostClockAudio {
    /// Runs until the thread is stopped, or `makeBuffer` (the buffer of `framesPerBuffer` frames
    /// from an absolute sample; nil when no memory is free) fails, whose error it returns.
    static func run(rate: Int, framesPerBuffer: Int, on thread: DeviceThread, handler: CaptureHandler,
                    makeBuffer: (_ firstSample: UInt64) throws(CaptureDeviceError) -> CMSampleBuffer?) -> CaptureDeviceError? {
        let rate = UInt64(rate)
        let frames = UInt64(framesPerBuffer)
        let samples = HostTimeGrid(step: CMTime(value: 1, timescale: CMTimeScale(rate)))!
        var start = samples.tick(atOrAfter: HostClock.now)
        var sequence: UInt64 = 0
        var drops: [CaptureDropRun] = []
        while thread.sleep(untilNanoseconds: samples.deadline(ofTick: start + frames)) {
            let behind = samples.tick(atOrBefore: HostClock.now) - (start + frames)
            if behind > rate / 2 {
                let skipped = behind / frames
                drops.record(Int(skipped), .late)
                sequence += skipped
                start += skipped * frames
            }
            let buffer: CMSampleBuffer?
            do throws(CaptureDeviceError) {
                buffer = try makeBuffer(start)
            } catch {
                return error
            }
            if let buffer {
                handler(.success(CaptureSample(
                    payload: .audio(buffer), presentationTime: samples.time(ofTick: start),
                    duration: CMTime(value: CMTimeValue(frames), timescale: CMTimeScale(rate)),
                    sequenceNumber: sequence, drops: drops)))
                drops.removeAll()
            } else {
                drops.record(1, .outOfBuffers)
            }
            sequence += 1
            start += frames
        }
        return nil
    }
}
