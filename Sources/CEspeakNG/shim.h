// The espeak-ng headers OpenAVFAudio's speech synthesizer (AVSpeechSynthesizer) uses.
#ifndef OPENAV_CESPEAKNG_SHIM_H
#define OPENAV_CESPEAKNG_SHIM_H

#include <espeak-ng/speak_lib.h>

#endif
