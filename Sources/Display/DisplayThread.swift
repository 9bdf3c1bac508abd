import CSDL2
import Foundation
import HostSystem

/// The one thread every SDL call of the process is made on: SDL's video subsystem, its windows,
/// renderers and event queue belong to the thread that started them. Started by the first
/// window; it runs for the rest of the process, waiting on SDL's events (a few milliseconds at
/// a time) and redrawing the windows whose pictures changed between waits.
final class DisplayThread: @unchecked Sendable {
    /// How long the loop waits for an event before it looks for new pictures: 4 ms, so a new
    /// picture is drawn at most 4 ms after it is due.
    static let refreshMilliseconds: Int32 = 4

    /// The thread, once SDL's video started on it, or why it could not start.
    static let shared: Result<DisplayThread, DisplayError> = {
        let thread = DisplayThread()
        return thread.start().map { thread }
    }()

    /// How many jobs the list holds before its ring first grows.
    private static let jobsAtFirst = 16

    private let condition = NSCondition()
    /// The jobs for the thread, in order, behind `condition`. It never loses a job and never
    /// makes a caller wait (`grow`): the display thread itself enqueues (a key handler setting
    /// the title or the full screen, a window let go in a handler), and would wait on itself.
    /// It holds requests about windows, never pictures (each window takes its own when it
    /// redraws), and the thread empties it every `refreshMilliseconds`, so it stays at a few.
    private var jobs = BoundedQueue<() -> Void>(capacity: jobsAtFirst, policy: .grow)
    private var started: Result<Void, DisplayError>?
    /// The display thread, to know when a call is already on it.
    private var threadID: pthread_t?
    /// The open windows, by SDL window ID (display thread only).
    private var windows: [UInt32: VideoWindow] = [:]

    /// Starts the thread and SDL's video on it; waits until it is known whether SDL started.
    private func start() -> Result<Void, DisplayError> {
        let thread = Thread { [self] in run() }
        thread.name = "OpenAVFoundation.display"
        thread.start()
        return condition.withLock {
            while started == nil { condition.wait() }
            return started!
        }
    }

    /// Runs `body` on the display thread and waits for its result.
    func perform<T>(_ body: @escaping () -> T) -> T {
        if let threadID = condition.withLock({ threadID }), pthread_equal(threadID, pthread_self()) != 0 { return body() }
        var result: T?
        var finished = false
        let done = NSCondition()
        enqueue {
            let value = body()
            done.withLock {
                result = value
                finished = true
                done.signal()
            }
        }
        return done.withLock {
            while !finished { done.wait() }
            return result!
        }
    }

    /// Runs `body` on the display thread soon, without waiting.
    func enqueue(_ body: @escaping () -> Void) {
        condition.withLock { _ = jobs.push(body) }
        var wake = SDL_Event()
        wake.type = SDL_USEREVENT.rawValue
        SDL_PushEvent(&wake)
    }

    /// Registers a window made on this thread, for its events and redraws.
    func add(_ window: VideoWindow, id: UInt32) { windows[id] = window }

    /// Forgets a window destroyed on this thread.
    func remove(id: UInt32) { windows[id] = nil }

    private func run() {
        // The process's own handlers stay: SDL would turn Ctrl-C into a quit event.
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1")
        // Scaled pictures are filtered (bilinear), not repeated pixels.
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear")
        let status = Self.startVideo()
        condition.withLock {
            threadID = pthread_self()
            started = status
            condition.broadcast()
        }
        guard case .success = status else { return }
        var event = SDL_Event()
        while true {
            if SDL_WaitEventTimeout(&event, Self.refreshMilliseconds) == 1 {
                repeat { handle(event) } while SDL_PollEvent(&event) == 1
            }
            while let job = condition.withLock({ jobs.isEmpty ? nil : jobs.pop() }) { job() }
            for window in windows.values { window.refresh() }
        }
    }

    /// Starts SDL's video on the session's display: X11 when `DISPLAY` is set, Wayland when
    /// `WAYLAND_DISPLAY` is, else the KMS/DRM console (unless `SDL_VIDEODRIVER` names drivers).
    /// SDL's windowless drivers (offscreen, dummy) count as no display unless named, since a
    /// window there is seen by nobody.
    private static func startVideo() -> Result<Void, DisplayError> {
        let environment = ProcessInfo.processInfo.environment
        let named = environment["SDL_VIDEODRIVER"].map { !$0.isEmpty } ?? false
        if !named && (environment["DISPLAY"] ?? "").isEmpty && (environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "kmsdrm")
        }
        guard SDL_InitSubSystem(UInt32(SDL_INIT_VIDEO)) == 0 else {
            return .failure(DisplayError("no display to open a window on (no X11 or Wayland display, no usable DRM device: \(String(cString: SDL_GetError())))"))
        }
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        if !named && (driver == "offscreen" || driver == "dummy") {
            SDL_QuitSubSystem(UInt32(SDL_INIT_VIDEO))
            return .failure(DisplayError("no display to open a window on (SDL found only its \(driver) driver)"))
        }
        return .success(())
    }

    /// Hands an event to the window it is for.
    private func handle(_ event: SDL_Event) {
        switch SDL_EventType(event.type) {
        case SDL_WINDOWEVENT: windows[event.window.windowID]?.handle(windowEvent: event.window)
        case SDL_KEYDOWN: windows[event.key.windowID]?.handle(key: event.key)
        case SDL_TEXTINPUT: windows[event.text.windowID]?.handle(text: event.text)
        default: break
        }
    }
}
