import CALSA
import Foundation
import HostSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One capture from an ALSA PCM, read with `snd_pcm_readi` and cut into fixed-size buffers
/// stamped on the host clock (see `ALSAMicrophone` for the timing rules). Made on the caller's
/// thread by `start`, then run on the device thread until stopped or failed: one thread at a
/// time.
final class ALSARecorder: @unchecked Sendable {
    private let pcm: ALSAPCM
    private let timeline: PCMTimeline
    /// Where `snd_pcm_readi` writes: one period.
    private let scratch: UnsafeMutableRawPointer
    private let scratchFrames: Int
    private let sampleRate: Int64

    /// Configures `pcm` for `maker`'s format in periods of one buffer.
    init(pcm: ALSAPCM, maker: PCMBufferMaker) throws(CaptureDeviceError) {
        try pcm.configure(maker.format, periodFrames: maker.framesPerBuffer)
        self.pcm = pcm
        timeline = PCMTimeline(maker: maker)
        scratchFrames = maker.framesPerBuffer
        scratch = UnsafeMutableRawPointer.allocate(byteCount: maker.byteCount, alignment: 16)
        sampleRate = Int64(maker.format.sampleRate)
    }

    deinit {
        scratch.deallocate()
    }

    /// Delivers buffers until a stop is asked for (nil) or the device fails (the error). Waits
    /// for data at most `DeviceThread.maximumSleepSlice` at a time, so that a stop is noticed.
    func run(on thread: DeviceThread, handler: CaptureHandler) -> CaptureDeviceError? {
        var status = snd_pcm_start(pcm.handle)
        while !thread.isStopRequested {
            if status >= 0 {
                status = snd_pcm_wait(pcm.handle, Int32(DeviceThread.maximumSleepSlice / 1_000_000))
            }
            if status >= 0 {
                status = read(thread: thread, handler: handler)
            }
            if status < 0 {
                if let error = recover(status) { return error }
                status = 0
            }
        }
        return nil
    }

    /// Reads what the PCM holds now, up to a period, and hands it to the timeline; libasound's
    /// status.
    private func read(thread: DeviceThread, handler: CaptureHandler) -> Int32 {
        let available = snd_pcm_avail(pcm.handle)
        guard available > 0 else { return Int32(clamping: available) }
        let now = Int64(HostClock.now)
        let count = snd_pcm_readi(pcm.handle, scratch, snd_pcm_uframes_t(min(Int(available), scratchFrames)))
        if count == -Int(EAGAIN) { return 0 }
        guard count > 0 else { return Int32(clamping: count) }
        // The first frame read waited behind all those available: it was recorded that long ago.
        let recorded = now - Int64(available) * Int64(HostClock.nanosecondsPerSecond) / sampleRate
        timeline.consume(scratch, frames: count, recordedAt: recorded, handler: handler, thread: thread)
        return 0
    }

    /// Gets the PCM going again after `status`: an overrun (`EPIPE`: the ring buffer filled while
    /// nobody read, its audio lost) or a suspend (`ESTRPIPE`) tells the timeline audio was lost
    /// and restarts the PCM; nil then. Any other failure is the error that ends the capture.
    private func recover(_ status: Int32) -> CaptureDeviceError? {
        guard -status == EPIPE || -status == ESTRPIPE else { return pcm.error(status, "reading") }
        timeline.lose()
        let prepared = snd_pcm_prepare(pcm.handle)
        guard prepared >= 0 else { return pcm.error(prepared, "recovering from an overrun") }
        let started = snd_pcm_start(pcm.handle)
        return started >= 0 ? nil : pcm.error(started, "restarting after an overrun")
    }
}
