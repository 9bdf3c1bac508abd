// The libasound headers OpenAVFoundation's ALSA capture backend uses, and Swift-callable
// versions of the libasound macros and variadic callbacks Swift cannot import.
#ifndef OPENAV_CALSA_SHIM_H
#define OPENAV_CALSA_SHIM_H

#include <alsa/asoundlib.h>

/// SND_PCM_FORMAT_S16: 16-bit signed integer samples in the machine's byte order.
static inline snd_pcm_format_t calsa_format_s16(void) { return SND_PCM_FORMAT_S16; }
/// SND_PCM_FORMAT_S32: 32-bit signed integer samples in the machine's byte order.
static inline snd_pcm_format_t calsa_format_s32(void) { return SND_PCM_FORMAT_S32; }
/// SND_PCM_FORMAT_FLOAT: 32-bit float samples in the machine's byte order.
static inline snd_pcm_format_t calsa_format_float(void) { return SND_PCM_FORMAT_FLOAT; }

/// An error handler that drops libasound's messages (a library prints nothing).
static void calsa_ignore_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// Stops libasound from printing its errors to stderr: they reach callers as return codes.
static inline void calsa_silence_errors(void) { snd_lib_error_set_handler(calsa_ignore_error); }

#endif
