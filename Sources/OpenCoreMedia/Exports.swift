// CoreMedia's interface uses CoreVideo and CoreFoundation types (CVImageBuffer, CFAllocator,
// CFDictionary), and Apple's `import CoreMedia` brings them along; so does this module.
@_exported import OpenCoreVideo
