/* subreaper: runs a command as a child subreaper, so that processes orphaned below it
 * (man2html's gzip children under mod_cgid) are reaped here instead of piling up as
 * zombies waiting for PID 1. Signals that stop or reload httpd are forwarded to the
 * command; the exit status is the command's. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t pending_signal;

static void remember_signal(int signal_number)
{
    pending_signal = signal_number;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: subreaper [--pidfile FILE] [--] COMMAND [ARGS...]\n"
            "Runs COMMAND as a child subreaper (prctl PR_SET_CHILD_SUBREAPER): every orphaned\n"
            "descendant is reaped here. SIGTERM, SIGINT, SIGHUP, SIGUSR1 and SIGWINCH are\n"
            "forwarded to COMMAND. Exits with COMMAND's status once it has ended.\n"
            "  --pidfile FILE   write this program's pid to FILE\n");
}

int main(int argc, char **argv)
{
    const char *pidfile = NULL;
    int first = 1;
    while (first < argc && argv[first][0] == '-') {
        if (!strcmp(argv[first], "--help") || !strcmp(argv[first], "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(argv[first], "--pidfile") && first + 1 < argc) {
            pidfile = argv[first + 1];
            first += 2;
        } else if (!strcmp(argv[first], "--")) {
            first++;
            break;
        } else {
            fprintf(stderr, "subreaper: unknown option '%s' (see --help)\n", argv[first]);
            return 2;
        }
    }
    if (first >= argc) {
        fprintf(stderr, "subreaper: no command given (see --help)\n");
        return 2;
    }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
        perror("subreaper: prctl(PR_SET_CHILD_SUBREAPER)");
        return 1;
    }
    if (pidfile) {
        FILE *file = fopen(pidfile, "w");
        if (!file) {
            fprintf(stderr, "subreaper: cannot write pid file '%s': %s\n", pidfile, strerror(errno));
            return 1;
        }
        fprintf(file, "%ld\n", (long)getpid());
        fclose(file);
    }

    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = remember_signal;
    sigemptyset(&action.sa_mask);
    const int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGWINCH};
    for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
        sigaction(forwarded[i], &action, NULL);

    pid_t command = fork();
    if (command < 0) {
        perror("subreaper: fork");
        return 1;
    }
    if (command == 0) {
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGUSR1, SIG_DFL);
        signal(SIGWINCH, SIG_DFL);
        execvp(argv[first], argv + first);
        fprintf(stderr, "subreaper: cannot run '%s': %s\n", argv[first], strerror(errno));
        _exit(127);
    }

    int command_status = 0, command_running = 1;
    for (;;) {
        if (pending_signal) {
            int signal_number = pending_signal;
            pending_signal = 0;
            if (command_running)
                kill(command, signal_number);
        }
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break; /* ECHILD: nothing left to reap */
        }
        if (pid == command) {
            command_running = 0;
            command_status = status;
        }
    }
    if (pidfile)
        unlink(pidfile);
    if (WIFEXITED(command_status))
        return WEXITSTATUS(command_status);
    return 128 + WTERMSIG(command_status);
}
