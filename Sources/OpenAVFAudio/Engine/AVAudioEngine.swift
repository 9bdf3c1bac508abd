import CaptureDevices
import Foundation
import HostSystem
import OpenCoreMedia

/// A graph of audio nodes rendered together: players, mixers, source and sink nodes, and the
/// output, connected bus to bus. `start()` renders the graph to the sound server's default sink
/// (PulseAudio) on a real-time thread of the engine's own, a cycle of the audio session's
/// `ioBufferDuration` at a time; in manual rendering mode the caller renders it instead
/// (`renderOffline(_:to:)`), as fast as it likes.
///
/// The output node plays the main mixer, which the engine makes (and connects to the output) the
/// first time `mainMixerNode` is asked for. Connections can change while the engine runs; a change
/// lands between two render cycles.
open class AVAudioEngine: NSObject, @unchecked Sendable {
    /// The graph and its lock.
    let graph = EngineGraph()

    /// What the engine keeps beside the graph (the graph's lock guards it).
    private var attached: [ObjectIdentifier: AVAudioNode] = [:]
    private var madeOutputNode: AVAudioOutputNode?
    private var madeMainMixer: AVAudioMixerNode?
    private var madeInputNode: AVAudioInputNode?
    private var running = false
    private var manual: (mode: AVAudioEngineManualRenderingMode, format: AVAudioFormat, maximumFrames: Int)?
    private var cycleCount: UInt64 = 0
    private var renderSampleTime: Int64 = 0
    private var output: EngineOutput?
    /// The sound server, as capture discovery asks (tests bind it to a private daemon).
    private let server: String? = PulseAudioDiscovery.server

    /// The most frames a cycle of the real-time output renders.
    static let maximumRealTimeFrames = 4096

    /// An engine with no nodes but its output.
    public override init() {
        super.init()
    }

    deinit {
        output?.stop()
    }

    // MARK: Nodes

    /// The nodes attached to the engine.
    open var attachedNodes: Set<AVAudioNode> {
        graph.withLock { Set(attached.values) }
    }

    /// Takes `node` into the engine, so that it can be connected. A node belongs to one engine.
    open func attach(_ node: AVAudioNode) {
        graph.withLock {
            precondition(node.engine == nil || node.engine === self,
                         "AVAudioEngine.attach: required condition is false: the node is attached to another engine")
            attached[ObjectIdentifier(node)] = node
            node.engine = self
            if running { node.prepareRendering(maximumFrames: maximumFrames) }
        }
    }

    /// Disconnects `node` and takes it out of the engine.
    open func detach(_ node: AVAudioNode) {
        graph.withLock {
            guard attached[ObjectIdentifier(node)] != nil else { return }
            graph.removeConnections { $0.source === node || $0.destination === node }
            attached[ObjectIdentifier(node)] = nil
            node.engine = nil
        }
    }

    /// The engine's output: the sound server's default sink, or the caller in manual rendering
    /// mode.
    open var outputNode: AVAudioOutputNode {
        graph.withLock {
            if let madeOutputNode { return madeOutputNode }
            let node = AVAudioOutputNode()
            madeOutputNode = node
            attached[ObjectIdentifier(node)] = node
            node.engine = self
            return node
        }
    }

    /// The engine's input: the audio session's current input, made the first time it is asked
    /// for; captured while the engine runs with it connected or tapped.
    open var inputNode: AVAudioInputNode {
        if let made = graph.withLock({ madeInputNode }) { return made }
        // Made outside the lock: finding the session's input asks the sound server.
        let node = AVAudioInputNode()
        return graph.withLock {
            if let madeInputNode { return madeInputNode }
            madeInputNode = node
            attached[ObjectIdentifier(node)] = node
            node.engine = self
            return node
        }
    }

    /// The mixer the output plays, made and connected to the output the first time it is asked
    /// for, at the output's format.
    open var mainMixerNode: AVAudioMixerNode {
        let output = outputNode
        return graph.withLock {
            if let madeMainMixer { return madeMainMixer }
            let mixer = AVAudioMixerNode()
            madeMainMixer = mixer
            attached[ObjectIdentifier(mixer)] = mixer
            mixer.engine = self
            connectLocked(mixer, to: output, fromBus: 0, toBus: 0, format: outputFormat)
            return mixer
        }
    }

    /// The format the output renders: the manual rendering format, else the sound server's
    /// (48 kHz, the default sink's channel count), deinterleaved float.
    var outputFormat: AVAudioFormat {
        if let manual { return manual.format }
        return AVAudioEngine.hardwareFormat
    }

    /// The sound server's output format as the engine plays it.
    static let hardwareFormat: AVAudioFormat = {
        let channels = max(1, min(8, AVAudioSession.sharedInstance().outputNumberOfChannels))
        return AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: AVAudioChannelCount(channels))!
    }()

    // MARK: Connections

    /// Connects output bus `bus1` of `node1` to input bus `bus2` of `node2` in `format` (nil:
    /// `node1`'s current output format of that bus), breaking the connections either bus had.
    open func connect(_ node1: AVAudioNode, to node2: AVAudioNode, fromBus bus1: AVAudioNodeBus, toBus bus2: AVAudioNodeBus,
                      format: AVAudioFormat?) {
        graph.withLock { connectLocked(node1, to: node2, fromBus: bus1, toBus: bus2, format: format) }
    }

    /// Connects `node1`'s output bus 0 to `node2`'s input bus 0 (a mixer's next free input bus)
    /// in `format` (nil: `node1`'s current output format).
    open func connect(_ node1: AVAudioNode, to node2: AVAudioNode, format: AVAudioFormat?) {
        graph.withLock {
            let bus = (node2 as? AVAudioMixerNode)?.nextAvailableInputBusLocked ?? 0
            connectLocked(node1, to: node2, fromBus: 0, toBus: bus, format: format)
        }
    }

    /// Connects output bus `sourceBus` of `sourceNode` to every point of `destNodes` in
    /// `format`, breaking the connections the source bus and those inputs had.
    open func connect(_ sourceNode: AVAudioNode, to destNodes: [AVAudioConnectionPoint], fromBus sourceBus: AVAudioNodeBus,
                      format: AVAudioFormat?) {
        graph.withLock {
            graph.removeConnections { $0.source === sourceNode && $0.sourceBus == sourceBus }
            for point in destNodes {
                guard let node = point.node else { continue }
                connectLocked(sourceNode, to: node, fromBus: sourceBus, toBus: point.bus, format: format, keepingSourceConnections: true)
            }
        }
    }

    /// Makes a connection with the graph locked.
    private func connectLocked(_ source: AVAudioNode, to destination: AVAudioNode, fromBus sourceBus: AVAudioNodeBus,
                               toBus destinationBus: AVAudioNodeBus, format: AVAudioFormat?, keepingSourceConnections: Bool = false) {
        precondition(source.engine === self && destination.engine === self,
                     "AVAudioEngine.connect: required condition is false: both nodes are attached to this engine")
        precondition(sourceBus >= 0 && sourceBus < source.outputBusCount, "AVAudioEngine.connect: bus \(sourceBus) is not an output bus of \(source)")
        precondition(destinationBus >= 0 && destinationBus < destination.inputBusCount,
                     "AVAudioEngine.connect: bus \(destinationBus) is not an input bus of \(destination)")
        let format = format ?? source.currentOutputFormat(sourceBus)
        precondition(format.commonFormat == .pcmFormatFloat32 && format.channelCount > 0 && format.sampleRate > 0,
                     "AVAudioEngine.connect: required condition is false: the format is 32-bit float linear PCM (\(format))")
        if !keepingSourceConnections {
            graph.removeConnections { $0.source === source && $0.sourceBus == sourceBus }
        }
        graph.removeConnections { $0.destination === destination && $0.destinationBus == destinationBus }
        source.outputFormats[sourceBus] = format
        destination.inputFormats[destinationBus] = format
        destination.inputWasConnected(bus: destinationBus, format: format)
        let mixing = AVAudioMixingDestination(connectionPoint: AVAudioConnectionPoint(node: destination, bus: destinationBus),
                                              initial: source.mixingDefaults)
        graph.add(.init(source: source, sourceBus: sourceBus, destination: destination, destinationBus: destinationBus,
                        format: format, mixing: mixing))
        if running {
            source.prepareRendering(maximumFrames: maximumFrames)
            destination.prepareRendering(maximumFrames: maximumFrames)
        }
    }

    /// Breaks the connection into input bus `bus` of `node`.
    open func disconnectNodeInput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        graph.withLock { graph.removeConnections { $0.destination === node && $0.destinationBus == bus } }
    }

    /// Breaks every connection into `node`.
    open func disconnectNodeInput(_ node: AVAudioNode) {
        graph.withLock { graph.removeConnections { $0.destination === node } }
    }

    /// Breaks every connection out of output bus `bus` of `node`.
    open func disconnectNodeOutput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        graph.withLock { graph.removeConnections { $0.source === node && $0.sourceBus == bus } }
    }

    /// Breaks every connection out of `node`.
    open func disconnectNodeOutput(_ node: AVAudioNode) {
        graph.withLock { graph.removeConnections { $0.source === node } }
    }

    /// What feeds input bus `bus` of `node`, if anything does.
    open func inputConnectionPoint(for node: AVAudioNode, inputBus bus: AVAudioNodeBus) -> AVAudioConnectionPoint? {
        graph.withLock {
            graph.connection(into: node, bus: bus).map { AVAudioConnectionPoint(node: $0.source, bus: $0.sourceBus) }
        }
    }

    /// What output bus `bus` of `node` feeds.
    open func outputConnectionPoints(for node: AVAudioNode, outputBus bus: AVAudioNodeBus) -> [AVAudioConnectionPoint] {
        graph.withLock { graph.connections(from: node, bus: bus).map(\.mixing.connectionPoint) }
    }

    // MARK: Running

    /// Whether the engine is running (started and not paused or stopped).
    open var isRunning: Bool { graph.withLock { running } }

    /// Whether the engine may stop itself when idle; it never does here.
    open var isAutoShutdownEnabled: Bool {
        get { false }
        set {}
    }

    /// Makes what rendering needs (every bus's memory), so that `start()` starts at once.
    open func prepare() {
        graph.withLock { prepareLocked() }
    }

    private func prepareLocked() {
        for node in attached.values { node.prepareRendering(maximumFrames: maximumFrames) }
    }

    /// The most frames one cycle renders.
    private var maximumFrames: Int { manual?.maximumFrames ?? Self.maximumRealTimeFrames }

    /// Starts rendering: to the sound server's default sink on the engine's thread, or, in
    /// manual rendering mode, when the caller renders. Throws when nothing reaches the output
    /// (`kAudioUnitErr_NoConnection`) or the sound server cannot play
    /// (`kAudioUnitErr_FailedInitialization`).
    open func start() throws {
        try graph.withLock { () throws -> Void in try startLocked() }
    }

    /// `start()` with the graph locked.
    private func startLocked() throws {
        guard !running else { return }
        let reachesOutput = madeOutputNode.map { graph.connection(into: $0, bus: 0) != nil } ?? false
        let sinks = attached.values.contains { $0 is AVAudioSinkNode && !graph.connections(into: $0).isEmpty }
        let listens = madeInputNode.map { !graph.connections(from: $0).isEmpty || !$0.taps.isEmpty } ?? false
        guard reachesOutput || sinks || listens else {
            throw Self.error(kAudioUnitErr_NoConnection, "nothing is connected to the engine's output")
        }
        prepareLocked()
        // The input first: with an output to set the pace its deliveries only queue (they take
        // no lock of the graph's), so it can be stopped here if the output then fails.
        if manual == nil, listens, let input = madeInputNode {
            // Without an output to set the pace, each delivery of the input renders a cycle.
            let listen: @Sendable (Int, UInt64) -> Void = { [weak self] frames, hostTime in
                self?.renderCycle(frames: frames, hostTime: hostTime) { _ in }
            }
            try input.startCapture(drive: reachesOutput ? nil : listen)
        }
        if manual == nil, reachesOutput {
            let format = madeOutputNode!.currentInputFormat(0)
            do {
                output = try EngineOutput(engine: self, server: server, format: format,
                                          cycleFrames: Int((AVAudioSession.sharedInstance().ioBufferDuration * format.sampleRate).rounded()))
            } catch {
                madeInputNode?.stopCapture()
                throw Self.error(kAudioUnitErr_FailedInitialization, "cannot play to the sound server: \(error)")
            }
        }
        running = true
    }

    /// Stops rendering and keeps everything where it is: `start()` goes on from there.
    open func pause() {
        let (stopped, input) = graph.withLock {
            running = false
            defer { output = nil }
            return (output, madeInputNode)
        }
        input?.stopCapture()
        stopped?.stop()
    }

    /// Stops rendering, stops every player, and starts the engine's timeline over.
    open func stop() {
        pause()
        let nodes = graph.withLock {
            renderSampleTime = 0
            for node in attached.values { node.resetTimeline() }
            return Array(attached.values)
        }
        for node in nodes { node.engineDidStop() }
    }

    /// Resets every node (a player's schedule, a mixer's resamplers).
    open func reset() {
        for node in attachedNodes { node.reset() }
    }

    /// The output's latency: what the sound server holds before a sample is heard (0 offline).
    var presentationLatency: TimeInterval {
        graph.withLock { manual == nil ? output?.latency ?? 0 : 0 }
    }

    /// How many times the sound server ran out of what the running engine's output wrote (0
    /// when it is not running to a sound server); stopping logs them.
    var outputUnderruns: Int {
        graph.withLock { output?.underruns ?? 0 }
    }

    /// Called by the output's thread when the sound server went away: the engine stops and
    /// posts `AVAudioEngineConfigurationChange`.
    func outputFailed() {
        let wasRunning = graph.withLock {
            defer { running = false; output = nil }
            return running
        }
        if wasRunning { NotificationCenter.default.post(name: .AVAudioEngineConfigurationChange, object: self) }
    }

    // MARK: Rendering

    /// Renders one cycle of `frames` frames whose first is heard at `hostTime`; the output's
    /// samples (nil: nothing is connected to it). The graph's lock is held while it renders.
    func renderCycle(frames: Int, hostTime: UInt64, body: (RenderBus?) -> Void) {
        graph.withLock {
            cycleCount += 1
            let cycle = RenderCycle(id: cycleCount, frames: frames, sampleTime: renderSampleTime, hostTime: hostTime,
                                    sampleRate: outputFormat.sampleRate, isOffline: manual?.mode == .offline)
            let rendered = madeOutputNode.flatMap { graph.pull(into: $0, bus: 0, frames: frames, cycle: cycle) }
            for node in attached.values {
                (node as? AVAudioSinkNode)?.receive(frames: frames, cycle: cycle, graph: graph)
            }
            // A tapped input that nothing pulled this cycle is rendered for its tap.
            if let input = madeInputNode, !input.taps.isEmpty {
                _ = input.pullOutput(bus: 0, frames: frames, cycle: cycle, graph: graph)
            }
            renderSampleTime += Int64(frames)
            body(rendered)
        }
    }

    // MARK: Manual rendering

    /// Switches the engine to rendering by the caller in `pcmFormat`, at most `maximumFrameCount`
    /// frames a call; the engine must be stopped. The output's input connection takes the format.
    open func enableManualRenderingMode(_ mode: AVAudioEngineManualRenderingMode, format pcmFormat: AVAudioFormat,
                                        maximumFrameCount: AVAudioFrameCount) throws {
        try graph.withLock {
            guard !running else { throw Self.error(AVAudioEngineManualRenderingError.initialized.rawValue, "the engine is running") }
            guard pcmFormat.commonFormat != .otherFormat, pcmFormat.channelCount > 0, pcmFormat.sampleRate > 0, maximumFrameCount > 0 else {
                throw Self.error(kAudio_ParamError, "manual rendering needs a linear PCM format and a frame count")
            }
            manual = (mode, pcmFormat, Int(maximumFrameCount))
            reconnectOutput()
        }
    }

    /// Switches the engine back to playing to the sound server; the engine must be stopped.
    open func disableManualRenderingMode() {
        graph.withLock {
            guard manual != nil, !running else { return }
            manual = nil
            reconnectOutput()
        }
    }

    /// Makes the connection into the output again at the output's current format.
    private func reconnectOutput() {
        guard let output = madeOutputNode, let connection = graph.connection(into: output, bus: 0) else { return }
        let format = AVAudioFormat(standardFormatWithSampleRate: outputFormat.sampleRate, channels: outputFormat.channelCount)!
        connectLocked(connection.source, to: output, fromBus: connection.sourceBus, toBus: 0, format: format)
    }

    /// Whether the caller renders the engine.
    open var isInManualRenderingMode: Bool { graph.withLock { manual != nil } }

    /// How the caller renders (`.realtime` when not in manual rendering mode).
    open var manualRenderingMode: AVAudioEngineManualRenderingMode { graph.withLock { manual?.mode ?? .realtime } }

    /// The format the caller renders in (the output's format when not in manual rendering mode).
    open var manualRenderingFormat: AVAudioFormat { graph.withLock { outputFormat } }

    /// The most frames one manual render gives (0 when not in manual rendering mode).
    open var manualRenderingMaximumFrameCount: AVAudioFrameCount { graph.withLock { AVAudioFrameCount(manual?.maximumFrames ?? 0) } }

    /// The sample time of the next frame manual rendering gives.
    open var manualRenderingSampleTime: AVAudioFramePosition { graph.withLock { renderSampleTime } }

    /// Renders the next `numberOfFrames` frames into `buffer` (in the manual rendering format),
    /// setting its `frameLength`. Throws when the engine is not in manual rendering mode or not
    /// running, or the count is more than the buffer or the maximum frame count holds.
    open func renderOffline(_ numberOfFrames: AVAudioFrameCount, to buffer: AVAudioPCMBuffer) throws -> AVAudioEngineManualRenderingStatus {
        let format = try checkManualRender(frames: Int(numberOfFrames))
        guard numberOfFrames <= buffer.frameCapacity, buffer.format.isEqual(format) else {
            throw Self.error(kAudio_ParamError, "the buffer must be in the manual rendering format with room for \(numberOfFrames) frames")
        }
        let status = render(frames: Int(numberOfFrames), into: buffer.mutableAudioBufferList, format: format)
        buffer.frameLength = numberOfFrames
        return status
    }

    /// The block that renders the engine in manual rendering mode: frames asked for, the buffer
    /// list to fill (in the manual rendering format; its byte sizes are set), and where to put an
    /// error code.
    open var manualRenderingBlock: AVAudioEngineManualRenderingBlock {
        { [weak self] frames, list, errorOut in
            guard let self else { return .error }
            do {
                let format = try checkManualRender(frames: Int(frames))
                let status = render(frames: Int(frames), into: list, format: format)
                let buffers = UnsafeMutableAudioBufferListPointer(list)
                for index in buffers.indices { buffers[index].mDataByteSize = frames * format.streamDescription.pointee.mBytesPerFrame }
                return status
            } catch {
                errorOut?.pointee = OSStatus((error as NSError).code)
                return .error
            }
        }
    }

    /// The manual rendering format, after checking that a render of `frames` frames may be made.
    private func checkManualRender(frames: Int) throws -> AVAudioFormat {
        try graph.withLock {
            guard let manual else { throw Self.error(AVAudioEngineManualRenderingError.invalidMode.rawValue, "the engine is not in manual rendering mode") }
            guard running else { throw Self.error(AVAudioEngineManualRenderingError.notRunning.rawValue, "the engine is not running") }
            guard frames <= manual.maximumFrames else {
                throw Self.error(kAudio_ParamError, "\(frames) frames are more than the maximum frame count \(manual.maximumFrames)")
            }
            return manual.format
        }
    }

    /// Renders `frames` frames into `list`, converting the float planes to `format`.
    private func render(frames: Int, into list: UnsafeMutablePointer<AudioBufferList>, format: AVAudioFormat) -> AVAudioEngineManualRenderingStatus {
        let hostTime = HostClock.now
        renderCycle(frames: frames, hostTime: hostTime) { rendered in
            SampleWriter.write(rendered, frames: frames, to: UnsafeMutableAudioBufferListPointer(list), format: format)
        }
        return .success
    }

    /// An `NSError` in AVFAudio's domain with `code` and a description.
    static func error(_ code: OSStatus, _ description: String) -> NSError {
        NSError(domain: avfAudioErrorDomain, code: Int(code), userInfo: [NSLocalizedDescriptionKey: "AVAudioEngine: \(description)"])
    }
}

extension Notification.Name {
    /// Posted (object: the engine) when the engine's output went away (the sound server stopped
    /// or its sink was removed) and the engine stopped.
    public static let AVAudioEngineConfigurationChange = Notification.Name("AVAudioEngineConfigurationChangeNotification")
}

/// The block that renders an engine in manual rendering mode.
public typealias AVAudioEngineManualRenderingBlock = (AVAudioFrameCount, UnsafeMutablePointer<AudioBufferList>, UnsafeMutablePointer<OSStatus>?)
    -> AVAudioEngineManualRenderingStatus
