import App
import Glibc

// OpenSSL writes to sockets with write(): a peer that hung up must give EPIPE, not kill the program.
signal(SIGPIPE, SIG_IGN)

exit(TicTacToe.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current()))
