// The FFmpeg headers OpenAVFoundation's MediaEngine uses, and Swift-callable versions of the
// FFmpeg macros Swift cannot import.
#ifndef OPENAV_CFFMPEG_SHIM_H
#define OPENAV_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/bsf.h>
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
/// AVERROR_EXIT: an interrupt callback asked FFmpeg to stop.
static inline int cffmpeg_averror_exit(void) { return AVERROR_EXIT; }
/// AVERROR_HTTP_BAD_REQUEST, _UNAUTHORIZED, _FORBIDDEN, _NOT_FOUND, _OTHER_4XX and _SERVER_ERROR:
/// the HTTP status a server answered with, as FFmpeg's http protocol reports it.
static inline int cffmpeg_averror_http_status(int status) {
    switch (status) {
    case 400: return AVERROR_HTTP_BAD_REQUEST;
    case 401: return AVERROR_HTTP_UNAUTHORIZED;
    case 403: return AVERROR_HTTP_FORBIDDEN;
    case 404: return AVERROR_HTTP_NOT_FOUND;
    case 500: return AVERROR_HTTP_SERVER_ERROR;
    default: return AVERROR_HTTP_OTHER_4XX;
    }
}

/// An interrupt callback for an AVFormatContext: FFmpeg stops blocking I/O (network reads,
/// playlist reloads) with AVERROR_EXIT once the int `opaque` points to is non-zero.
static inline int cffmpeg_interrupt_when_set(void *opaque) { return __atomic_load_n((int *)opaque, __ATOMIC_ACQUIRE); }
/// Sets the flag `cffmpeg_interrupt_when_set` reads.
static inline void cffmpeg_set_interrupt(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELEASE); }
/// The interrupt callback that stops I/O once `*flag` is set.
static inline AVIOInterruptCB cffmpeg_interrupt_callback(int *flag) {
    AVIOInterruptCB callback = { cffmpeg_interrupt_when_set, flag };
    return callback;
}

#endif
