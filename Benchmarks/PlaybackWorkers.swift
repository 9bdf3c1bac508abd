#if canImport(Glibc)
import Glibc
#endif
import Foundation
import OpenAVFoundation

extension Workers {
    /// The playback workload: an `AVPlayer` plays the clip to its end, sound to the server's
    /// default sink, while a display loop at 60 Hz takes each picture due from an
    /// `AVPlayerItemVideoOutput` in the decoder's own format (what `mpv --vo=null` is handed).
    static func play(_ url: URL) throws {
        let item = AVPlayerItem(url: url)
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: nil)
        item.add(output)
        let player = AVPlayer(playerItem: item)
        let ended = DispatchSemaphore(value: 0)
        let observers = [AVPlayerItem.didPlayToEndTimeNotification, AVPlayerItem.failedToPlayToEndTimeNotification].map {
            NotificationCenter.default.addObserver(forName: $0, object: item, queue: nil) { _ in ended.signal() }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        player.play()
        var pictures = 0
        while ended.wait(timeout: .now() + .nanoseconds(16_666_667)) == .timedOut {
            guard item.status != .failed else { break }
            let time = output.itemTime(forHostTime: CACurrentMediaTime())
            if output.hasNewPixelBuffer(forItemTime: time), output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: nil) != nil {
                pictures += 1
            }
        }
        if let error = item.error { throw error }
        print("played \(item.duration.seconds) s; the display loop took \(pictures) pictures")
    }

    /// The window workload: an `AVPlayer` plays the clip to its end, sound to the server's default
    /// sink, the video in a 1920x1080 `AVDisplayWindow` through an `AVPlayerLayer`.
    static func playInWindow(_ url: URL) throws {
        let item = AVPlayerItem(url: url)
        let player = AVPlayer(playerItem: item)
        let window = try AVDisplayWindow(layer: AVPlayerLayer(player: player), title: "openav-bench", size: CGSize(width: 1920, height: 1080))
        defer { window.close() }
        let ended = DispatchSemaphore(value: 0)
        let observers = [AVPlayerItem.didPlayToEndTimeNotification, AVPlayerItem.failedToPlayToEndTimeNotification].map {
            NotificationCenter.default.addObserver(forName: $0, object: item, queue: nil) { _ in ended.signal() }
        }
        defer { observers.forEach(NotificationCenter.default.removeObserver) }
        player.play()
        ended.wait()
        if let error = item.error { throw error }
        print("played \(item.duration.seconds) s in a window")
    }

    /// The display-layer workload: a streaming client's way. The clip's H.264 packets, read by a
    /// passthrough reader, are fed through the request block into an `AVSampleBufferDisplayLayer`
    /// in a 1920x1080 `AVDisplayWindow` under a synchronizer at rate 1, until the synchronizer's
    /// time passes the last picture.
    static func displayLayer(_ url: URL) async throws {
        let asset = AVURLAsset(url: url)
        guard let track = try await asset.loadTracks(withMediaType: .video).first else { throw Failure("the clip has no video") }
        let duration = try await asset.load(.duration)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? Failure("the reader did not start") }
        let layer = AVSampleBufferDisplayLayer()
        let synchronizer = AVSampleBufferRenderSynchronizer()
        synchronizer.addRenderer(layer)
        let window = try AVDisplayWindow(layer: layer, title: "openav-bench", size: CGSize(width: 1920, height: 1080))
        defer { window.close() }
        nonisolated(unsafe) let source = output  // read on the feeding queue alone
        layer.requestMediaDataWhenReady(on: DispatchQueue(label: "feeder")) {
            while layer.isReadyForMoreMediaData {
                guard let buffer = source.copyNextSampleBuffer() else { return layer.stopRequestingMediaData() }
                layer.enqueue(buffer)
            }
        }
        synchronizer.setRate(1, time: .zero)
        while synchronizer.currentTime() < duration { try await Task.sleep(nanoseconds: 20_000_000) }
        if let error = layer.error { throw error }
        print("showed \(duration.seconds) s through a sample buffer display layer")
    }

    /// The seek workload: exact seeks of a paused `AVPlayer` (zero tolerances), each timed
    /// until the picture at the time can be copied from the output.
    static func seek(_ url: URL, times: [Double]) async throws {
        let item = AVPlayerItem(url: url)
        let output = AVPlayerItemVideoOutput(pixelBufferAttributes: nil)
        item.add(output)
        let player = AVPlayer(playerItem: item)
        while item.status == .unknown { try await Task.sleep(nanoseconds: 5_000_000) }
        if let error = item.error { throw error }
        var latencies: [Double] = []
        for seconds in times {
            let time = CMTime(seconds: seconds, preferredTimescale: 90_000)
            let start = ChildProcess.now()
            guard await player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero),
                  output.copyPixelBuffer(forItemTime: time, itemTimeForDisplay: nil) != nil
            else { throw Failure("the seek to \(seconds) s gave no picture") }
            latencies.append(ChildProcess.now() - start)
        }
        printSeekMetrics(latencies)
    }

    /// The seek workload's peer: `mpv --hr-seek=yes`, paused, told to seek exactly over its JSON
    /// IPC; each seek timed until mpv reports `playback-restart` (the picture at the time is
    /// decoded). mpv is this worker's child, so its cost is counted in the worker's.
    static func mpvSeek(_ url: URL, times: [Double]) throws {
        let socket = NSTemporaryDirectory() + "openav-bench-mpv-\(getpid()).socket"
        let mpv = try MPVClient(arguments: ["--no-config", "--vo=null", "--ao=pulse", "--pause", "--hr-seek=yes", "--keep-open=yes",
                                            "--really-quiet", "--input-ipc-server=\(socket)", url.path], socket: socket)
        defer { mpv.quit() }
        var latencies: [Double] = []
        for seconds in times {
            let start = ChildProcess.now()
            try mpv.send(#"{"command":["seek",\#(seconds),"absolute+exact"]}"#)
            try mpv.wait(forEvent: "playback-restart")
            latencies.append(ChildProcess.now() - start)
        }
        printSeekMetrics(latencies)
    }

    /// The `metrics:` line of the seek workload's sides.
    static func printSeekMetrics(_ latencies: [Double]) {
        let milliseconds = latencies.map { $0 * 1000 }.sorted()
        print(String(format: "metrics: seek-median-ms=%.2f seek-max-ms=%.2f seek-total-ms=%.2f",
                     Report.median(milliseconds), milliseconds.last ?? 0, milliseconds.reduce(0, +)))
    }
}
