// The libpulse headers OpenAVFoundation's PulseAudio capture backend uses, and Swift-callable
// versions of the libpulse macros Swift cannot import.
#ifndef OPENAV_CPULSEAUDIO_SHIM_H
#define OPENAV_CPULSEAUDIO_SHIM_H

#include <pulse/pulseaudio.h>

/// PA_SAMPLE_FLOAT32NE: 32-bit float samples in the machine's byte order.
static inline pa_sample_format_t cpulseaudio_sample_float32ne(void) { return PA_SAMPLE_FLOAT32NE; }
/// PA_SAMPLE_S16NE: 16-bit signed integer samples in the machine's byte order.
static inline pa_sample_format_t cpulseaudio_sample_s16ne(void) { return PA_SAMPLE_S16NE; }

#endif
