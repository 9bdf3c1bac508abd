// The kernel's V4L2 interface (<linux/videodev2.h>, from linux-libc-dev) for the V4L2 camera
// backend in CaptureDevices, and Swift-callable versions of the ioctl request macros
// (`_IOWR(...)` expressions Swift cannot import).
#ifndef OPENAV_CV4L2_SHIM_H
#define OPENAV_CV4L2_SHIM_H

#include <errno.h>
#include <sys/ioctl.h>
#include <linux/videodev2.h>

/// ioctl(fd, request, arg), retried while a signal interrupts it; -1 with errno on failure.
static inline int cv4l2_ioctl(int fd, unsigned long request, void *arg) {
    int result;
    do { result = ioctl(fd, request, arg); } while (result == -1 && errno == EINTR);
    return result;
}

/// VIDIOC_QUERYCAP: the driver, card, bus and capabilities of a node.
static inline unsigned long cv4l2_querycap(void) { return VIDIOC_QUERYCAP; }
/// VIDIOC_ENUM_FMT: the pixel formats of a buffer type, by index.
static inline unsigned long cv4l2_enum_fmt(void) { return VIDIOC_ENUM_FMT; }
/// VIDIOC_ENUM_FRAMESIZES: the frame sizes of a pixel format.
static inline unsigned long cv4l2_enum_framesizes(void) { return VIDIOC_ENUM_FRAMESIZES; }
/// VIDIOC_ENUM_FRAMEINTERVALS: the frame intervals of a pixel format and size.
static inline unsigned long cv4l2_enum_frameintervals(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
/// VIDIOC_S_FMT: sets the capture format (the driver may adjust it).
static inline unsigned long cv4l2_s_fmt(void) { return VIDIOC_S_FMT; }
/// VIDIOC_S_PARM: sets the frame interval.
static inline unsigned long cv4l2_s_parm(void) { return VIDIOC_S_PARM; }
/// VIDIOC_REQBUFS: allocates (or frees, with count 0) the driver's buffers.
static inline unsigned long cv4l2_reqbufs(void) { return VIDIOC_REQBUFS; }
/// VIDIOC_QUERYBUF: the offset and length of a buffer, for mmap.
static inline unsigned long cv4l2_querybuf(void) { return VIDIOC_QUERYBUF; }
/// VIDIOC_QBUF: hands a buffer to the driver to fill.
static inline unsigned long cv4l2_qbuf(void) { return VIDIOC_QBUF; }
/// VIDIOC_DQBUF: takes a filled buffer back.
static inline unsigned long cv4l2_dqbuf(void) { return VIDIOC_DQBUF; }
/// VIDIOC_STREAMON: starts streaming.
static inline unsigned long cv4l2_streamon(void) { return VIDIOC_STREAMON; }
/// VIDIOC_STREAMOFF: stops streaming and returns every buffer.
static inline unsigned long cv4l2_streamoff(void) { return VIDIOC_STREAMOFF; }
/// VIDIOC_QUERYCTRL: a control's type, range and default (with V4L2_CTRL_FLAG_NEXT_CTRL: the next one).
static inline unsigned long cv4l2_queryctrl(void) { return VIDIOC_QUERYCTRL; }
/// VIDIOC_QUERYMENU: the name of a menu control's item.
static inline unsigned long cv4l2_querymenu(void) { return VIDIOC_QUERYMENU; }
/// VIDIOC_G_CTRL: a control's current value.
static inline unsigned long cv4l2_g_ctrl(void) { return VIDIOC_G_CTRL; }
/// VIDIOC_S_CTRL: sets a control's value.
static inline unsigned long cv4l2_s_ctrl(void) { return VIDIOC_S_CTRL; }

#endif
