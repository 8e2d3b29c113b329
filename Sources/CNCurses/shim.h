#ifndef OPSCOPE_CNCURSES_SHIM_H
#define OPSCOPE_CNCURSES_SHIM_H
// Wide-character ncurses for Swift. Only CursesBackend imports this module.
// Swift cannot import function-like macros or (safely, in Swift 6 mode)
// mutable C globals, so the few we need are wrapped as static inline
// functions below. Keep this file small.
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <locale.h>
#include <langinfo.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

// Attributes (function-like macros in curses.h).
static inline attr_t opscope_attr_bold(void) { return A_BOLD; }
static inline attr_t opscope_attr_dim(void) { return A_DIM; }
static inline attr_t opscope_attr_reverse(void) { return A_REVERSE; }
static inline attr_t opscope_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t opscope_attr_normal(void) { return A_NORMAL; }

// Globals that are mutable C state; read through functions.
static inline WINDOW *opscope_stdscr(void) { return stdscr; }
static inline WINDOW *opscope_curscr(void) { return curscr; }
static inline FILE *opscope_stdout(void) { return stdout; }
static inline FILE *opscope_stdin(void) { return stdin; }
static inline int opscope_colors(void) { return COLORS; }
static inline int opscope_color_pairs(void) { return COLOR_PAIRS; }

// Window size in cells (macros in curses.h).
static inline int opscope_maxx(WINDOW *w) { return getmaxx(w); }
static inline int opscope_maxy(WINDOW *w) { return getmaxy(w); }

// Function keys: KEY_F(n) is a function-like macro.
static inline int opscope_key_f0(void) { return KEY_F0; }

// Mouse masks (built by macros). Buttons 4 and 5 are the wheel (up, down).
static inline mmask_t opscope_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t opscope_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t opscope_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t opscope_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t opscope_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline mmask_t opscope_all_released(void) {
    return BUTTON1_RELEASED | BUTTON2_RELEASED | BUTTON3_RELEASED | BUTTON4_RELEASED | BUTTON5_RELEASED;
}
static inline mmask_t opscope_report_mouse_position(void) { return REPORT_MOUSE_POSITION; }

// Columns the C library (and so ncurses) gives a wide character; -1 if it is
// not printable in the current locale. Declared here because glibc hides it
// unless _XOPEN_SOURCE is set when <wchar.h> is first read.
extern int wcwidth(wchar_t c);
static inline int opscope_wcwidth(wchar_t c) { return wcwidth(c); }

// True when the current LC_CTYPE encodes text as UTF-8 (wide characters work).
static inline int opscope_codeset_is_utf8(void) {
    const char *cs = nl_langinfo(CODESET);
    return cs != NULL && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

// Size of the terminal on fd in cells; returns 0 on success.
static inline int opscope_terminal_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}
#endif
