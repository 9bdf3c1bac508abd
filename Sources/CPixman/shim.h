// pixman, the X server's and cairo's compositor: affine-transformed, filtered, masked drawing
// of one picture onto another, which the video compositor is built on.
#ifndef OPENAV_CPIXMAN_SHIM_H
#define OPENAV_CPIXMAN_SHIM_H

#include <pixman.h>

#endif
