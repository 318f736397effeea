#include <alsa/asoundlib.h>

/* alsa-lib prints its own errors ("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default") to stderr.
   The handler it takes is variadic, which Swift cannot write, so the no-op handler lives here. FlightVoice reports
   every failure itself from the return codes (snd_strerror). */
static void flightvoice_alsa_ignore_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void flightvoice_alsa_silence_errors(void) {
    snd_lib_error_set_handler(flightvoice_alsa_ignore_error);
}
