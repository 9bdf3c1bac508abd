// The FFmpeg headers OpenAVFoundation's MediaEngine uses, and Swift-callable versions of the
// FFmpeg macros Swift cannot import.
#ifndef OPENAV_CFFMPEG_SHIM_H
#define OPENAV_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libavutil/display.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
#include <libavutil/dict.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersrc.h>
#include <libavfilter/buffersink.h>

/// AVERROR(e): FFmpeg's negative error code for a POSIX errno value.
static inline int cffmpeg_averror(int posix_errno) { return AVERROR(posix_errno); }
/// AVERROR_EOF: end of file.
static inline int cffmpeg_averror_eof(void) { return AVERROR_EOF; }
/// AVERROR_INVALIDDATA: the input is corrupt.
static inline int cffmpeg_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
/// AVERROR_DECODER_NOT_FOUND.
static inline int cffmpeg_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
/// AVERROR_STREAM_NOT_FOUND.
static inline int cffmpeg_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
/// AV_NOPTS_VALUE: "no timestamp".
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }
/// AV_TIME_BASE: the time base of AVFormatContext.duration (microseconds).
static inline int cffmpeg_time_base(void) { return AV_TIME_BASE; }

#endif
