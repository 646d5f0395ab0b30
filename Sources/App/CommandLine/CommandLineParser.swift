import MatchCoordination

/// Reads the command line by hand (no outside packages): a command, then its options in any order and its
/// words. `--help` and `--version` win wherever they stand; the rest is the command's own type's to read.
public enum CommandLineParser {
  public static let version = Software.version

  public static let usage = """
    Usage:
      tictactoe [--ui curses|plain] [--ascii]
      tictactoe play [--ai LEVEL | --hotseat | --engine COMMAND] [--size N] [--k K]
                     [--rule freestyle|exact5|renju] [--first me|them|random]
                     [--clock C] [--opening swap2] [--ui curses|plain]
                     [--ascii]
      tictactoe host [--port P] [--bind ADDR] [--map-port] [--name NAME]
                     [--size N] [--k K] [--rule R] [--clock C] [--grace S]
                     [--opening O] [--keep-hosting] [--relay HOST:PORT]
                     [--watch-delay N] [TRUST] [--ui MODE]
      tictactoe host --bot LEVEL [--port P] [--bind ADDR] [--name NAME]
                     [--size N] [--k K] [--rule R] [--clock C] [--opening O]
                     [TRUST]
      tictactoe host --bot --engine COMMAND [--engine-cap N] [--port P]
                     [--bind ADDR] [--name NAME] [--size N] [--rule R] [TRUST]
      tictactoe join HOST[:PORT] [--name NAME] [--grace S] [TRUST] [--ui MODE]
      tictactoe join INVITE [--name NAME] [--grace S] [--ui MODE]
      tictactoe join --lan GAME [--name NAME] [--grace S] [TRUST] [--ui MODE]
      tictactoe watch HOST[:PORT] [--game N] [--name NAME] [TRUST] [--ui MODE]
      tictactoe watch INVITE [--name NAME] [--ui MODE]
      tictactoe list [--wait SECONDS] [--json]
      tictactoe identity [show | new [--yes] | export]
      tictactoe identity import CERT.pem KEY.pem [--yes]
      tictactoe identity import FILE.p12 [--password-file F] [--yes]
      tictactoe invite
      tictactoe doctor [--router]
      tictactoe peers [list | rename NAME|FINGERPRINT NEWNAME]
      tictactoe peers forget NAME|FINGERPRINT
      tictactoe games [list] [--json]
      tictactoe games delete N...|all [--yes]
      tictactoe replay FILE|N [--ui curses|plain] [--ascii]
      tictactoe verify FILE|N
      tictactoe brain
      tictactoe completions bash|zsh|fish
      tictactoe help [COMMAND | all]
      tictactoe --help | --version

    With no command, tictactoe opens the lobby: play the computer, two players on
    one keyboard, options. `play` starts a local game at once; leaving it quits.
    `host` waits for one opponent over TLS (IPv4 and IPv6); `join` connects to a
    host. HOST may be a name, an IPv4 address or an IPv6 address; write
    [v6addr]:port to give a port with an IPv6 address.
    `host` also shows an invite (tictactoe:KEY@ADDRESS/PORT,...+CHECK; `invite`
    prints it again): `join INVITE` tries its addresses with the host's key pinned,
    so nothing is asked and any other key is refused; an invite that names a relay
    (the host's --relay option) is tried there too, 2 s after its addresses or once
    they failed.
    `watch` follows a host's game as a spectator (on the full screen, or line by
    line with --ui plain): the players and their keys, the board, each move, the
    clocks, the result and the score; it judges the host's key as `join` does. At
    a practice bot it lists the bot's games; `--game N` watches game N of them.
    `host --bot LEVEL` is a practice bot: the computer plays everyone who joins,
    many at once, until stopped; with --engine COMMAND instead of LEVEL an
    outside brain plays for it, one process per game.
    `games` lists the games you finished (kept as SGF in
    $XDG_DATA_HOME/tictactoe/games), newest first; `replay N` steps through game N
    of that list (or any GM[4] SGF file): ←/→, Home/End, q. `games delete N`
    deletes game N of that list; the games after it are then numbered afresh.
    `identity export` prints your certificate (PEM), never your key.
    `verify N` checks that its moves give its result and that both players signed
    it (network games; a local game has nothing to sign).
    `doctor` checks the files, LAN discovery, the addresses, the router, the
    firewall and the relay the settings name, each with a hint.
    `completions SHELL` prints the completion script of bash, zsh or fish:
    source <(tictactoe completions bash).
    `brain` plays five in a row as a Gomocup (Piskvork) brain on stdin and stdout,
    boards 5 to 15, for any manager; `play --engine COMMAND` plays such an outside
    brain instead of the built-in computer (see ENGINES in the man page).
    `help COMMAND`, like COMMAND --help, shows one command's help; `help all` (this
    text) all of it; `--help` alone the commands.

    Options:
      --ai LEVEL        play the computer at LEVEL: easy, normal or perfect
                        (default: the saved setting)
      --hotseat         two players take turns on this keyboard
      --engine COMMAND  play an outside Gomocup brain, run as COMMAND (words split
                        without a shell; quote with ' or "): five in a row on 5×5
                        to 15×15 only (default: the `engine` setting when the
                        opponent setting is engine); with host --bot it plays for
                        the practice bot, one process per game, and forfeits a
                        game it breaks (the joiner is told why; others go on)
      --engine-cap N    with host --bot --engine: at most N engine processes
                        (games) at once, from 1 to 1024 (default: the number of
                        processors); a joiner beyond them is refused as busy
      --size N          an N×N board, N from 3 to 15 (default: the saved setting,
                        first 3)
      --k K             K in a row wins, from 3 to N (default: min(N, 5) with
                        --size, else the saved setting)
      --rule R          five in a row's rule: freestyle (five or more wins),
                        exact5 (a line of six or more does not win) or renju (X,
                        who moves first, wins only by exactly five and may not
                        make a double three, a double four or six in a row);
                        brings five in a row with it, on 15×15 when the saved
                        board is smaller than 5×5 (default: the rule setting
                        while k is 5, else freestyle); a host offers it to
                        joiners, whose program must speak protocol version 4
      --first WHO       who moves first against the computer: me, them or random;
                        the first player is X
      --clock C         the time control of a local game (against the computer or
                        two players; not an engine), or the one a host offers
                        (default: the clock setting, else none): BASE+INC with
                        BASE in minutes (5+3) or seconds (30s+2) and INC in
                        seconds; move:20s for a fixed time per move; none. A clock
                        starts after each side's first move; a flag loses on time
      --opening O       how a game opens: standard or swap2 (default: the opening
                        setting, or standard against an engine; five in a row from
                        9×9: the first player places 3 stones, the second takes
                        black, white or places 2 more and the first chooses). An
                        engine is asked with SWAP2BOARD. A local game's clocks
                        start once the colours are settled; --first me makes you
                        the first. A host offers it to joiners (protocol 4); with a
                        clock there, the clock of the side that places or chooses
                        runs
      --bot LEVEL       host a practice bot playing at LEVEL (easy, normal or
                        perfect) against any number of joiners at once, until Ctrl-C
                        or SIGTERM (SIGHUP reads its deny list and limits again);
                        new joiners are let in only with --accept-new
      --port P          host on port P (default: the port setting, else 7177; 0
                        picks a free port)
      --bind ADDR       host on this address only (default: every address, IPv6 and
                        IPv4)
      --map-port        ask the router to open the port for players on the internet
                        (UPnP, NAT-PMP, PCP); the mapping is removed when hosting
                        stops (default: the map_port setting, else no)
      --no-map-port     never ask the router (the practice bot never asks unless
                        told to)
      --relay HOST:PORT also wait for joiners at this transit relay (Debian's
                        magic-wormhole-transit-relay), for players no address
                        reaches; the invite names it (default: the relay setting,
                        else none; the practice bot never waits at one)
      --router          `doctor` also asks the router which mapping protocols it
                        speaks and its outside address
      --watch-delay N   spectators see the game N moves late, so that none can
                        help a player as it goes; a game's last moves and result
                        reach them when it ends (default: the watch_delay setting,
                        else 0, live)
      --keep-hosting    with --ui plain, wait for the next opponent after each match
                        instead of exiting (the full-screen host always does, until
                        you leave)
      --name NAME       your name for this game (default: the `name` setting, else
                        the login name)
      --lan GAME        join the game announced on the local network under the name
                        GAME
      --grace S         keep a game S seconds after the connection drops, for the
                        joiner to reconnect (default 120, from 5 to 3600); after
                        that the game may be claimed
      --wait SECONDS    how long `list` looks for games (default 2)
      --json            `list` and `games` print JSON, one object per game
      --yes             `identity new` and `import` replace your identity, and
                        `games delete all` deletes every game, without asking
      --password-file F
                        the password of a PKCS#12 file, for --identity and
                        `identity import`
      --ui MODE         curses (full screen, the default) or plain (lines on
                        stdin/stdout)
      --ascii           draw with ASCII only (also chosen when the locale is not
                        UTF-8)
      -h, --help        show this help and exit
      --version         show the version and exit

    Trust (TRUST above; the default is trust on first use, like OpenSSH):
      --accept-new      accept peers never met before without asking (a changed key
                        is still refused)
      --pin SHA256:...|CERT
                        accept only this key (a fingerprint, or the key of a PEM or
                        DER certificate file); give it again for a second key (any
                        is accepted)
      --ca FILE         accept peers whose certificate chains to the CAs in FILE
                        ("system": the system store)
      --peer-name NAME  with --ca: the name the peer's certificate must carry
                        (default: the host typed)
      --allow-expired   accept expired certificates (shown on screen while in force)
      --no-verify-name  with --ca: do not check the certificate's name (shown on
                        screen)
      --insecure        encrypt but accept ANY certificate: privacy from passive
                        eavesdroppers only
      --cert FILE --key FILE
                        present this certificate and key (PEM)
      --identity FILE.p12 [--password-file F]
                        present the identity in this PKCS#12 file

    Environment:
      NO_COLOR          when set, draw without colours
      XDG_CONFIG_HOME   settings.conf lives in $XDG_CONFIG_HOME/tictactoe (default
                        ~/.config)
      XDG_DATA_HOME     the identity, known_peers and games/ live in
                        $XDG_DATA_HOME/tictactoe (default ~/.local/share)
      XDG_STATE_HOME    the log lives in $XDG_STATE_HOME/tictactoe (default
                        ~/.local/state)

    Exit status: 0 done, 1 error, 64 usage error, 65 bad file, 10-32 network and
    LAN failures, 69 no LAN discovery (each in the man page), 130/143/129 ended by
    SIGINT/SIGTERM/SIGHUP.
    """

  public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    if arguments.contains(where: { $0 == "-h" || $0 == "--help" }) {
      return .help(arguments.first.flatMap { CommandLineGrammar.Command(rawValue: $0) })
    }
    if arguments.contains("--version") { return .version }
    var name = CommandLineGrammar.Command.lobby
    var rest = arguments[...]
    if let first = rest.first, !first.hasPrefix("-") {
      guard let named = CommandLineGrammar.Command(rawValue: first), named != .lobby else {
        let guess = CommandSuggestion.command(near: first).map { ": did you mean \($0.rawValue)?" } ?? ""
        throw UsageError(message: "unknown command \"\(first)\"\(guess)")
      }
      name = named
      rest = rest.dropFirst()
    }
    return try command(named: name).parse(try CommandArguments(command: name, rest))
  }

  /// The type of the command with this name, which reads its arguments.
  static func command(named name: CommandLineGrammar.Command) -> any Command.Type {
    switch name {
    case .lobby: LobbyCommand.self
    case .play: PlayCommand.self
    case .host: HostCommand.self
    case .join: JoinCommand.self
    case .watch: WatchCommand.self
    case .invite: InviteCommand.self
    case .list: ListCommand.self
    case .identity: IdentityCommand.self
    case .peers: PeersCommand.self
    case .doctor: DoctorCommand.self
    case .games: GamesCommand.self
    case .replay: ReplayCommand.self
    case .verify: VerifyCommand.self
    case .brain: BrainCommand.self
    case .completions: CompletionsCommand.self
    case .help: HelpCommand.self
    }
  }
}
