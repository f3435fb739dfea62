#ifndef REWIND_CNCURSESW_SHIM_H
#define REWIND_CNCURSESW_SHIM_H
// The wide-character ncurses API (get_wch, cchar_t) needs these before the header.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>
#include <locale.h>
#include <stdio.h>

// Swift imports no function-like or compound macros: these give their values.
static inline attr_t rewind_attr_bold(void) { return A_BOLD; }
static inline attr_t rewind_attr_dim(void) { return A_DIM; }
static inline attr_t rewind_attr_reverse(void) { return A_REVERSE; }
static inline attr_t rewind_attr_underline(void) { return A_UNDERLINE; }
static inline attr_t rewind_attr_normal(void) { return A_NORMAL; }
static inline mmask_t rewind_mouse_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t rewind_mouse_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t rewind_mouse_button5_pressed(void) { return BUTTON5_PRESSED; }

// C globals (stdscr, COLS, LINES, stdin, stdout) are shared mutable state to Swift 6: read
// them through functions.
static inline WINDOW *rewind_stdscr(void) { return stdscr; }
static inline int rewind_columns(void) { return COLS; }
static inline int rewind_lines(void) { return LINES; }
static inline SCREEN *rewind_newterm(void) { return newterm(NULL, stdout, stdin); }
#endif
