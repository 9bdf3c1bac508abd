import Foundation

// ImageIO's image property keys that photo metadata uses (`AVCapturePhoto.metadata`, the
// attachments of `AVCaptureStillImageOutput`'s sample buffers). Linux addition: on Apple
// platforms these are ImageIO's.

/// The EXIF orientation of an image (1 is upright), a number.
public let kCGImagePropertyOrientation: CFString = "Orientation"
/// The dictionary of EXIF properties.
public let kCGImagePropertyExifDictionary: CFString = "{Exif}"
/// EXIF: the width of the image in pixels, a number.
public let kCGImagePropertyExifPixelXDimension: CFString = "PixelXDimension"
/// EXIF: the height of the image in pixels, a number.
public let kCGImagePropertyExifPixelYDimension: CFString = "PixelYDimension"
/// EXIF: when the image was taken, a string "yyyy:MM:dd HH:mm:ss" in local time.
public let kCGImagePropertyExifDateTimeOriginal: CFString = "DateTimeOriginal"
/// A comment the user wrote, in the Exif dictionary.
public let kCGImagePropertyExifUserComment: CFString = "UserComment"
/// The GPS dictionary of an image's properties (location, altitude, time).
public let kCGImagePropertyGPSDictionary: CFString = "{GPS}"
/// The dictionary of TIFF properties.
public let kCGImagePropertyTIFFDictionary: CFString = "{TIFF}"
/// TIFF: who made the camera, a string.
public let kCGImagePropertyTIFFMake: CFString = "Make"
/// TIFF: the camera's model, a string.
public let kCGImagePropertyTIFFModel: CFString = "Model"
/// TIFF: the software that made the image, a string.
public let kCGImagePropertyTIFFSoftware: CFString = "Software"
/// TIFF: when the image was made, a string "yyyy:MM:dd HH:mm:ss" in local time.
public let kCGImagePropertyTIFFDateTime: CFString = "DateTime"
/// TIFF: the EXIF orientation of the image, a number.
public let kCGImagePropertyTIFFOrientation: CFString = "Orientation"
