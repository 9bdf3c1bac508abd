// The Xlib, MIT-SHM and XFixes headers OpenAVFoundation's X11 screen capture backend uses, and
// Swift-callable versions of the Xlib macros Swift cannot import.
#ifndef OPENAV_CX11_SHIM_H
#define OPENAV_CX11_SHIM_H

#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/XShm.h>
#include <X11/extensions/Xfixes.h>
#include <sys/ipc.h>
#include <sys/shm.h>

/// AllPlanes: the plane mask selecting every bit of a pixel.
static inline unsigned long cx11_all_planes(void) { return AllPlanes; }
/// XDestroyImage: frees an image and, unless it is a shared-memory image, its pixels.
static inline int cx11_destroy_image(XImage *image) { return XDestroyImage(image); }
/// shmget(IPC_PRIVATE, size, IPC_CREAT | 0600): a new private shared-memory segment.
static inline int cx11_shm_create(size_t size) { return shmget(IPC_PRIVATE, size, IPC_CREAT | 0600); }
/// shmctl(id, IPC_RMID): marks a segment for removal once every process has detached it.
static inline int cx11_shm_remove(int id) { return shmctl(id, IPC_RMID, 0); }

/// An X error handler that ignores the error instead of exiting the process (Xlib's default):
/// the failed request's own result (a False or NULL return) tells the caller.
static inline int cx11_ignore_error(Display *display, XErrorEvent *event) {
    (void)display;
    (void)event;
    return 0;
}
/// An X I/O error handler that returns (Xlib's default prints and exits the process); the
/// connection's exit handler (`cx11_survive_broken_connection`) then tells its owner.
static inline int cx11_ignore_io_error(Display *display) {
    (void)display;
    return 0;
}
/// Installs `cx11_ignore_error` and `cx11_ignore_io_error` as Xlib's error handlers.
static inline void cx11_install_error_handler(void) {
    XSetErrorHandler(cx11_ignore_error);
    XSetIOErrorHandler(cx11_ignore_io_error);
}
/// Records a broken connection in the flag the handler was installed with.
static inline void cx11_note_broken(Display *display, void *flag) {
    (void)display;
    *(int *)flag = 1;
}
/// Makes a broken connection set `*flag` instead of exiting the process (Xlib's default); the
/// connection's requests fail from then on.
static inline void cx11_survive_broken_connection(Display *display, int *flag) {
    XSetIOErrorExitHandler(display, cx11_note_broken, flag);
}

#endif
