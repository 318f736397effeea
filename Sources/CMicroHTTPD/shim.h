#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* MHD_start_daemon is variadic, which Swift cannot call: this passes the options as an MHD_OPTION_ARRAY. */
typedef void *(*fv_mhd_uri_log_callback)(void *cls, const char *uri, struct MHD_Connection *connection);

static inline struct MHD_Daemon *fv_mhd_start_daemon(
    unsigned int flags, const struct sockaddr *address,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    fv_mhd_uri_log_callback uri_logger, void *uri_logger_cls,
    unsigned int connection_timeout_seconds, unsigned int connection_limit, size_t connection_memory_limit)
{
    struct MHD_OptionItem options[] = {
        { MHD_OPTION_SOCK_ADDR, 0, (void *) address },
        { MHD_OPTION_NOTIFY_COMPLETED, (intptr_t) completed, completed_cls },
        { MHD_OPTION_URI_LOG_CALLBACK, (intptr_t) uri_logger, uri_logger_cls },
        { MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds, NULL },
        { MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL },
        { MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t) connection_memory_limit, NULL },
        { MHD_OPTION_END, 0, NULL },
    };
    return MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The reader-callback sentinels are cast macros, which do not import. */
static const ssize_t fv_mhd_content_reader_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t fv_mhd_content_reader_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;
static const uint64_t fv_mhd_size_unknown = MHD_SIZE_UNKNOWN;

/* MHD_get_daemon_info is variadic: the port the daemon bound (useful after asking for port 0). */
static inline uint16_t fv_mhd_bound_port(struct MHD_Daemon *daemon)
{
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}
