// SDL2, for the windows that show player layers and capture previews (X11, Wayland, KMS/DRM),
// and Swift-callable versions of the SDL macros and constants Swift cannot import.
#ifndef OPENAV_CSDL2_SHIM_H
#define OPENAV_CSDL2_SHIM_H

#include <SDL2/SDL.h>

/// SDL_WINDOWPOS_CENTERED: a window placed in the middle of the screen.
static inline int csdl2_windowpos_centered(void) { return SDL_WINDOWPOS_CENTERED; }

#endif
