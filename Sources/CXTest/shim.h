// The XTEST extension's header, for the tests only: they press and release pointer buttons on
// a test X server (XTestFakeButtonEvent) as a user would.
#ifndef OPENAV_CXTEST_SHIM_H
#define OPENAV_CXTEST_SHIM_H

#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>

#endif
