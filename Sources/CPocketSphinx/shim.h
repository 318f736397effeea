#include <pocketsphinx.h>
#include <sphinxbase/jsgf.h>
#include <sphinxbase/err.h>
#include <stdarg.h>
#include <stdio.h>

/// A plain-string log receiver: level is an err_lvl_t (ERR_DEBUG ... ERR_FATAL), message is one formatted piece.
typedef void (*flightvoice_log_sink_f)(int level, const char *message);

/// Formats sphinxbase's variadic log call and hands the text to the sink passed as user data.
static inline void flightvoice_log_trampoline(void *user_data, err_lvl_t level, const char *format, ...) {
    char message[4096];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(message, sizeof message, format, arguments);
    va_end(arguments);
    if (user_data != NULL) ((flightvoice_log_sink_f)user_data)((int)level, message);
}

/// Routes all (process-global) sphinxbase logging to `sink`; NULL silences it.
static inline void flightvoice_set_log_sink(flightvoice_log_sink_f sink) {
    err_set_logfp(NULL); /* also stops the configuration dump, which writes to the log file directly */
    if (sink == NULL) {
        err_set_callback(NULL, NULL);
    } else {
        err_set_callback(flightvoice_log_trampoline, (void *)sink);
    }
}

#include <sphinxbase/bitvec.h>
#include <sphinxbase/ckd_alloc.h>

/// Marks the words `wids` of `fsg` as alternate pronunciations (`fsg_model_add_alt` does this with each word it adds;
/// `bitvec_alloc` is a macro Swift cannot call). The grammar search then adds none of its own.
static inline void flightvoice_fsg_mark_alternates(fsg_model_t *fsg, const int32 *wids, int count) {
    if (fsg->altwords == NULL) fsg->altwords = bitvec_alloc(fsg->n_word_alloc);
    for (int i = 0; i < count; ++i) bitvec_set(fsg->altwords, wids[i]);
}
