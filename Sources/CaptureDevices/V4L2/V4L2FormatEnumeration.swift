import CV4L2
import OpenCoreMedia

/// Lists a V4L2 capture node's formats: `VIDIOC_ENUM_FMT` for the pixel formats, then
/// `VIDIOC_ENUM_FRAMESIZES` and `VIDIOC_ENUM_FRAMEINTERVALS` for each size and its rates.
///
/// Discrete sizes are offered as they are; stepwise and continuous size ranges offer the
/// common sizes (`commonSizes`) that lie on the range's grid, plus its largest size. Discrete
/// intervals become one frame rate range each (minimum = maximum, as Apple lists UVC cameras'
/// rates); stepwise and continuous intervals one range from the shortest to the longest; a
/// driver that enumerates no intervals is offered 30 fps.
/// Formats the backend cannot convert (`V4L2PixelFormat.supported`) are left out.
enum V4L2FormatEnumeration {
    /// Sizes offered inside a stepwise or continuous range: the usual camera sizes.
    static let commonSizes: [(width: Int, height: Int)] = [
        (160, 120), (320, 180), (320, 240), (352, 288), (640, 360), (640, 480), (800, 600), (960, 540),
        (1024, 768), (1280, 720), (1280, 960), (1600, 1200), (1920, 1080), (2560, 1440), (3840, 2160),
    ]

    /// The node's capture formats in the driver's order: pixel format, then size as enumerated.
    static func formats(of node: V4L2Node) -> [CaptureVideoFormat] {
        var formats: [CaptureVideoFormat] = []
        for fourCC in pixelFormats(of: node) {
            guard let pixelFormat = V4L2PixelFormat.supported(fourCC: fourCC) else { continue }
            for (width, height) in sizes(of: node, fourCC: fourCC) {
                let ranges = frameRateRanges(of: node, fourCC: fourCC, width: width, height: height)
                formats.append(CaptureVideoFormat(pixelFormat: pixelFormat.deliveredPixelFormat, width: width,
                                                  height: height, frameRateRanges: ranges, v4l2PixelFormat: fourCC,
                                                  codecType: pixelFormat.codecType))
            }
        }
        return formats
    }

    /// `VIDIOC_ENUM_FMT` for video capture: the four-character codes, in the driver's order.
    static func pixelFormats(of node: V4L2Node) -> [UInt32] {
        var codes: [UInt32] = []
        var description = v4l2_fmtdesc()
        description.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        while node.control(cv4l2_enum_fmt(), &description) == nil {
            codes.append(description.pixelformat)
            description.index += 1
        }
        return codes
    }

    /// `VIDIOC_ENUM_FRAMESIZES`: the sizes of a pixel format.
    static func sizes(of node: V4L2Node, fourCC: UInt32) -> [(width: Int, height: Int)] {
        var size = v4l2_frmsizeenum()
        size.pixel_format = fourCC
        var sizes: [(width: Int, height: Int)] = []
        while node.control(cv4l2_enum_framesizes(), &size) == nil {
            if size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue {
                sizes.append((Int(size.discrete.width), Int(size.discrete.height)))
            } else {
                // Stepwise or continuous (step 1): one entry describes the whole range.
                let range = size.stepwise
                return sizesInRange(width: (Int(range.min_width), Int(range.max_width), max(1, Int(range.step_width))),
                                    height: (Int(range.min_height), Int(range.max_height), max(1, Int(range.step_height))))
            }
            size.index += 1
        }
        return sizes
    }

    /// The common sizes on a stepwise grid (`min + k·step`, up to `max`), and the largest size.
    static func sizesInRange(width: (min: Int, max: Int, step: Int),
                             height: (min: Int, max: Int, step: Int)) -> [(width: Int, height: Int)] {
        func fits(_ value: Int, _ range: (min: Int, max: Int, step: Int)) -> Bool {
            value >= range.min && value <= range.max && (value - range.min) % range.step == 0
        }
        var sizes = commonSizes.filter { fits($0.width, width) && fits($0.height, height) }
        if !sizes.contains(where: { $0.width == width.max && $0.height == height.max }) {
            sizes.append((width.max, height.max))
        }
        return sizes
    }

    /// `VIDIOC_ENUM_FRAMEINTERVALS`: the frame rate ranges of a pixel format at a size, the
    /// highest rate first.
    static func frameRateRanges(of node: V4L2Node, fourCC: UInt32, width: Int, height: Int) -> [CaptureFrameRateRange] {
        var interval = v4l2_frmivalenum()
        interval.pixel_format = fourCC
        interval.width = UInt32(width)
        interval.height = UInt32(height)
        var ranges: [CaptureFrameRateRange] = []
        while node.control(cv4l2_enum_frameintervals(), &interval) == nil {
            if interval.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue {
                if let duration = duration(interval.discrete) {
                    ranges.append(CaptureFrameRateRange(minFrameDuration: duration, maxFrameDuration: duration))
                }
            } else {
                let range = interval.stepwise
                if let shortest = duration(range.min), let longest = duration(range.max) {
                    ranges.append(CaptureFrameRateRange(minFrameDuration: shortest, maxFrameDuration: longest))
                }
                break
            }
            interval.index += 1
        }
        if ranges.isEmpty {
            // A driver that does not enumerate intervals: it runs at whatever rate it has.
            ranges.append(CaptureFrameRateRange(minRate: 30, maxRate: 30))
        }
        return ranges.sorted { $0.minFrameDuration < $1.minFrameDuration }
    }

    /// A V4L2 fraction of a second as a frame duration, or nil when it is not positive.
    static func duration(_ fraction: v4l2_fract) -> CMTime? {
        guard fraction.numerator > 0, fraction.denominator > 0, fraction.denominator <= UInt32(Int32.max) else { return nil }
        return CMTime(value: CMTimeValue(fraction.numerator), timescale: CMTimeScale(fraction.denominator))
    }
}
