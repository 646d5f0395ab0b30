import PlayerSettings

// Generated once from the renderer, then read line by line before committing: each is what the player
// should see. When a screen changes on purpose, update its golden here.
enum NetworkGoldens {
  static let screens: [String: String] = [
    "joinerWaiting": """
     tictactoe
     Joined as Bartholomew-Fitzgerald-Mcalliste vs Alexandrina-Konstantinopoulou-XV
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

     Alexandrina-Konstantinopoulou-XV at [fe80::1c2b:3aff:fe4d:5e6f%enp0s31f6]:7177
















              Waiting for Alexandrina-Konstantinopoulou-XV to let you in.

     q leave
    """,
    "joinerEndedAscii": """
     tictactoe                 You 2 | Alexandrina-Konstantinopoulou-XV 1 | draws 0
     Joined as Bartholomew-Fitzgerald-Mcalliste vs Alexandrina-Konstantinopoulou-XV
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

         a  b  c  d  e  f  g  h  i  j  k  l  m  n  o   Your opponent left the game.
     15  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .   (The host at
     14  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .   [fe80::1c2b:3aff:fe4d:5e6f%e
     13  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .   np0s31f6]:7177 closed the
     12  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .   connection.)
     11  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
     10  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     1. h8  i9
      9  .  .  .  .  .  .  .  .  O  .  .  .  .  .  .
      8  .  .  .  .  .  .  .  X  .  .  .  .  .  .  .
      7  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
      6  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .   * Game 4: you play X and
      5  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     move first.
      4  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .   Bartholomew-Fitzgerald-Mcall
      3  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     iste: that was a clever
      2  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     opening, but wait until
      1  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     you see what I do on the
                                                         long diagonal from a1 to
                                                         o15 next game
                                                       you: gl hf
     r join again | any other key: leave
    """,
    "joinerEnded": """
     tictactoe                 You 2 · Alexandrina-Konstantinopoulou-XV 1 · draws 0
     Joined as Bartholomew-Fitzgerald-Mcalliste vs Alexandrina-Konstantinopoulou-XV
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

         a  b  c  d  e  f  g  h  i  j  k  l  m  n  o   Your opponent left the game.
     15  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   (The host at
     14  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   [fe80::1c2b:3aff:fe4d:5e6f%e
     13  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   np0s31f6]:7177 closed the
     12  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   connection.)
     11  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
     10  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     1. h8  i9
      9  ·  ·  ·  ·  ·  ·  ·  ·  O  ·  ·  ·  ·  ·  ·
      8  ·  ·  ·  ·  ·  ·  ·  X  ·  ·  ·  ·  ·  ·  ·
      7  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
      6  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   · Game 4: you play X and
      5  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     move first.
      4  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   Bartholomew-Fitzgerald-Mcall
      3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     iste: that was a clever
      2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     opening, but wait until
      1  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     you see what I do on the
                                                         long diagonal from a1 to
                                                         o15 next game
                                                       you: gl hf
     r join again · any other key: leave
    """,
    "scrolledBackAscii": """
     tictactoe                 You 2 | Bartholomew-Fitzgerald-Mcalliste 1 | draws 0
     Hosting as Alexandrina-Konstantinopoulou-XV vs
     Bartholomew-Fitzgerald-Mcalliste
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

                                     +---+---+---+
                                     |   |   |   |
                                     +---+---+---+
                                     |   | X |   |
                                     +---+---+---+
                                     |   |   |   |
                                     +---+---+---+

                  Waiting for Bartholomew-Fitzgerald-Mcalliste's move.

     Bartholomew-Fitzgerald-Mcalliste: message number 9 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 10 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 11 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 12 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 13 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 14 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 15 of a long talk
     v 1 new | PgDn
     arrows/hjkl move | Enter place | c chat | R resign | ? help | q leave
    """,
    "scrolledBack": """
     tictactoe                 You 2 · Bartholomew-Fitzgerald-Mcalliste 1 · draws 0
     Hosting as Alexandrina-Konstantinopoulou-XV vs
     Bartholomew-Fitzgerald-Mcalliste
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

                                     ┌───┬───┬───┐
                                     │   │   │   │
                                     ├───┼───┼───┤
                                     │   │ X │   │
                                     ├───┼───┼───┤
                                     │   │   │   │
                                     └───┴───┴───┘

                  Waiting for Bartholomew-Fitzgerald-Mcalliste's move.

     Bartholomew-Fitzgerald-Mcalliste: message number 9 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 10 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 11 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 12 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 13 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 14 of a long talk
     Bartholomew-Fitzgerald-Mcalliste: message number 15 of a long talk
     ↓ 1 new · PgDn
     ←↑↓→/hjkl move · Enter place · c chat · R resign · ? help · q leave
    """,
    "typingChat": """
     tictactoe                 You 2 · Bartholomew-Fitzgerald-Mcalliste 1 · draws 0
     Hosting as Alexandrina-Konstantinopoulou-XV vs
     Bartholomew-Fitzgerald-Mcalliste
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

         a  b  c  d  e  f  g  h  i  j  k  l  m  n  o   You play h8. Waiting for
     15  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   Bartholomew-Fitzgerald-Mcall
     14  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   iste's move.
     13  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
     12  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     1. h8
     11  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
     10  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
      9  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
      8  ·  ·  ·  ·  ·  ·  ·  X  ·  ·  ·  ·  ·  ·  ·   · Game 4: you play X and
      7  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     move first.
      6  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   Bartholomew-Fitzgerald-Mcall
      5  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     iste: that was a clever
      4  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     opening, but wait until
      3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     you see what I do on the
      2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     long diagonal from a1 to
      1  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     o15 next game
                                                       you: gl hf
                                                       say: lock it now, at g7 END_
     type a message · Enter send · Esc cancel
    """,
    "net3x3ascii": """
     tictactoe                 You 2 | Bartholomew-Fitzgerald-Mcalliste 1 | draws 0
     Hosting as Alexandrina-Konstantinopoulou-XV vs
     Bartholomew-Fitzgerald-Mcalliste
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

                                     +---+---+---+
                                     |   |   |   |
                                     +---+---+---+
                                     |   |[X]|   |
                                     +---+---+---+
                                     | O |   |   |
                                     +---+---+---+

                                     Your turn (X)





     * Game 4: you play X and move first.
     Bartholomew-Fitzgerald-Mcalliste: that was a clever opening, but wait until
       you see what I do on the long diagonal from a1 to o15 next game
     you: gl hf
     arrows/hjkl move | Enter place | c chat | R resign | ? help | q leave
    """,
    "net9x9ascii": """
     tictactoe                 You 2 | Bartholomew-Fitzgerald-Mcalliste 1 | draws 0
     Hosting as Alexandrina-Konstantinopoulou-XV vs
     Bartholomew-Fitzgerald-Mcalliste
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

         a  b  c  d  e  f  g  h  i   You play f6. Waiting for
      9  .  .  .  .  .  .  .  .  .   Bartholomew-Fitzgerald-Mcalliste's move.
      8  .  .  .  .  .  .  .  .  .
      7  .  .  .  .  .  .  .  .  .     1. e5  d4     2. f6
      6  .  .  .  .  .  X  .  .  .
      5  .  .  .  .  X  .  .  .  .
      4  .  .  .  O  .  .  .  .  .
      3  .  .  .  .  .  .  .  .  .
      2  .  .  .  .  .  .  .  .  .
      1  .  .  .  .  .  .  .  .  .


                                     * Game 4: you play X and move first.
                                     Bartholomew-Fitzgerald-Mcalliste: that was a
                                       clever opening, but wait until you see what
                                       I do on the long diagonal from a1 to o15
                                       next game
                                     you: gl hf
     arrows/hjkl move | Enter place | c chat | R resign | g go to | ? help | q leave
    """,
    "lobbySettingsError": """

                                 T I C - T A C - T O E

                           3×3, 3 in a row · computer: normal

                             ▸ Play the computer
                               Two players on this keyboard
                               Host a network game
                               Join by address
                               Options
                               Quit

     Games on this network:
       none found yet





                                  Settings not loaded:
      /home/alexandrina-konstantinopoulou/.config/tictactoe/settings.conf line 1:
      board side 16 is out of range: it must be from 3 to 15; using the defaults.

     ↑↓/jk choose · Enter select · ? help · q quit
    """,
    "net15x15": """
     tictactoe                 You 2 · Bartholomew-Fitzgerald-Mcalliste 1 · draws 0
     Hosting as Alexandrina-Konstantinopoulou-XV vs
     Bartholomew-Fitzgerald-Mcalliste
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

         a  b  c  d  e  f  g  h  i  j  k  l  m  n  o   Bartholomew-Fitzgerald-Mcall
     15  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   iste plays k8. Your turn (X)
     14  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
     13  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     1. h8  i9     2. g7  j10
     12  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     3. i7  g9     4. h7  f7
     11  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     5. h9  h6     6. j7  k7
     10  ·  ·  ·  ·  ·  ·  ·  ·  ·  O  ·  ·  ·  ·  ·     7. g6  k8
      9  ·  ·  ·  ·  ·  ·  O  X  O  ·  ·  ·  ·  ·  ·
      8  ·  ·  ·  ·  ·  ·  · [X] ·  ·  O  ·  ·  ·  ·
      7  ·  ·  ·  ·  ·  O  X  X  X  X  O  ·  ·  ·  ·   · Game 4: you play X and
      6  ·  ·  ·  ·  ·  ·  X  O  ·  ·  ·  ·  ·  ·  ·     move first.
      5  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   Bartholomew-Fitzgerald-Mcall
      4  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     iste: that was a clever
      3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     opening, but wait until
      2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     you see what I do on the
      1  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     long diagonal from a1 to
                                                         o15 next game
                                                       you: gl hf
     ←↑↓→/hjkl move · Enter place · c chat · R resign · g go to · ? help · q leave
    """,
    "net15x15ascii": """
     tictactoe                 You 2 | Bartholomew-Fitzgerald-Mcalliste 1 | draws 0
     Hosting as Alexandrina-Konstantinopoulou-XV vs
     Bartholomew-Fitzgerald-Mcalliste
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

         a  b  c  d  e  f  g  h  i  j  k  l  m  n  o   Bartholomew-Fitzgerald-Mcall
     15  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .   iste plays k8. Your turn (X)
     14  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
     13  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     1. h8  i9     2. g7  j10
     12  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     3. i7  g9     4. h7  f7
     11  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     5. h9  h6     6. j7  k7
     10  .  .  .  .  .  .  .  .  .  O  .  .  .  .  .     7. g6  k8
      9  .  .  .  .  .  .  O  X  O  .  .  .  .  .  .
      8  .  .  .  .  .  .  . [X] .  .  O  .  .  .  .
      7  .  .  .  .  .  O  X  X  X  X  O  .  .  .  .   * Game 4: you play X and
      6  .  .  .  .  .  .  X  O  .  .  .  .  .  .  .     move first.
      5  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .   Bartholomew-Fitzgerald-Mcall
      4  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     iste: that was a clever
      3  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     opening, but wait until
      2  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     you see what I do on the
      1  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     long diagonal from a1 to
                                                         o15 next game
                                                       you: gl hf
     arrows/hjkl move | Enter place | c chat | R resign | g go to | ? help | q leave
    """,
    "net9x9": """
     tictactoe                 You 2 · Bartholomew-Fitzgerald-Mcalliste 1 · draws 0
     Hosting as Alexandrina-Konstantinopoulou-XV vs
     Bartholomew-Fitzgerald-Mcalliste
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

         a  b  c  d  e  f  g  h  i   You play f6. Waiting for
      9  ·  ·  ·  ·  ·  ·  ·  ·  ·   Bartholomew-Fitzgerald-Mcalliste's move.
      8  ·  ·  ·  ·  ·  ·  ·  ·  ·
      7  ·  ·  ·  ·  ·  ·  ·  ·  ·     1. e5  d4     2. f6
      6  ·  ·  ·  ·  ·  X  ·  ·  ·
      5  ·  ·  ·  ·  X  ·  ·  ·  ·
      4  ·  ·  ·  O  ·  ·  ·  ·  ·
      3  ·  ·  ·  ·  ·  ·  ·  ·  ·
      2  ·  ·  ·  ·  ·  ·  ·  ·  ·
      1  ·  ·  ·  ·  ·  ·  ·  ·  ·


                                     · Game 4: you play X and move first.
                                     Bartholomew-Fitzgerald-Mcalliste: that was a
                                       clever opening, but wait until you see what
                                       I do on the long diagonal from a1 to o15
                                       next game
                                     you: gl hf
     ←↑↓→/hjkl move · Enter place · c chat · R resign · g go to · ? help · q leave
    """,
    "net3x3": """
     tictactoe                 You 2 · Bartholomew-Fitzgerald-Mcalliste 1 · draws 0
     Hosting as Alexandrina-Konstantinopoulou-XV vs
     Bartholomew-Fitzgerald-Mcalliste
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA

                                     ┌───┬───┬───┐
                                     │   │   │   │
                                     ├───┼───┼───┤
                                     │   │[X]│   │
                                     ├───┼───┼───┤
                                     │ O │   │   │
                                     └───┴───┴───┘

                                     Your turn (X)





     · Game 4: you play X and move first.
     Bartholomew-Fitzgerald-Mcalliste: that was a clever opening, but wait until
       you see what I do on the long diagonal from a1 to o15 next game
     you: gl hf
     ←↑↓→/hjkl move · Enter place · c chat · R resign · ? help · q leave
    """,
    "hostWaiting": """
     tictactoe
     Hosting as Alexandrina-Konstantinopoulou-XV
     Listening on port 7177 (IPv6 and IPv4); waiting for someone to join.

     Join with: tictactoe join 192.168.1.20:7177, or
       [fe80::1c2b:3aff:fe4d:5e6f%enp0s31f6]:7177, or
       [2001:db8:85a3:1234:5678:8a2e:370:7334]:7177
     Your key: SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA (read aloud:
       tango river lemon nine ...)
     If they know you under another name, they will be asked to trust
       SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA again.
     Invite: tictactoe join
       'ttt://[fe80::1c2b:3aff:fe4d:5e6f%enp0s31f6]:7177#q8W1r4c0ZkQm0yXbT9vN2pLsE7
       hJfU3aG6dK5iOwYzA'









     q leave
    """,
    "hostWaitingAscii": """
     tictactoe
     Hosting as Alexandrina-Konstantinopoulou-XV
     Listening on port 7177 (IPv6 and IPv4); waiting for someone to join.

     Join with: tictactoe join 192.168.1.20:7177, or
       [fe80::1c2b:3aff:fe4d:5e6f%enp0s31f6]:7177, or
       [2001:db8:85a3:1234:5678:8a2e:370:7334]:7177
     Your key: SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA (read aloud:
       tango river lemon nine ...)
     If they know you under another name, they will be asked to trust
       SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA again.
     Invite: tictactoe join
       'ttt://[fe80::1c2b:3aff:fe4d:5e6f%enp0s31f6]:7177#q8W1r4c0ZkQm0yXbT9vN2pLsE7
       hJfU3aG6dK5iOwYzA'









     q leave
    """,
    "trust80x24": """
     tictactoe
     Hosting as Alexandrina-Konstantinopoulou-XV vs
     Bartholomew-Fitzgerald-Mcalliste
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA


    ┌──────────────────────────────────────────────────────────────────────────────┐
    │ WARNING: a new player calling itself Bartholomew-Fitzgerald-Mcalliste — not  │
    │   the Bartholomew-Fitzgerald-Mcalliste you know.                             │
    │   known Bartholomew-Fitzgerald-Mcalliste:                                    │
    │     SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU (known_peers line 12) │
    │   this one:  SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA              │
    │ Let this new player join?                                                    │
    │                                                                              │
    │ Or type or paste their fingerprint to check it.                              │
    │                                                                              │
    │ y accept · n refuse                                                          │
    └──────────────────────────────────────────────────────────────────────────────┘





     y accept · n refuse · or type the fingerprint
    """,
    "trust80x24ascii": """
     tictactoe
     Hosting as Alexandrina-Konstantinopoulou-XV vs
     Bartholomew-Fitzgerald-Mcalliste
     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA


    +------------------------------------------------------------------------------+
    | WARNING: a new player calling itself Bartholomew-Fitzgerald-Mcalliste — not  |
    |   the Bartholomew-Fitzgerald-Mcalliste you know.                             |
    |   known Bartholomew-Fitzgerald-Mcalliste:                                    |
    |     SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU (known_peers line 12) |
    |   this one:  SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA              |
    | Let this new player join?                                                    |
    |                                                                              |
    | Or type or paste their fingerprint to check it.                              |
    |                                                                              |
    | y accept | n refuse                                                          |
    +------------------------------------------------------------------------------+





     y accept | n refuse | or type the fingerprint
    """,
    "trustOverBoard60x20": """
     tictactoe                         You 2 · them 1 · draws 0
     Hosting as Alexandrina-Konstantinopoulou-XV vs
    ┌──────────────────────────────────────────────────────────┐
    │ WARNING: a new player calling itself                     │
    │   Bartholomew-Fitzgerald-Mcalliste — not the             │
    │   Bartholomew-Fitzgerald-Mcalliste you know.             │
    │   known Bartholomew-Fitzgerald-Mcalliste:                │
    │     SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU   │
    │     (known_peers line 12)                                │
    │   this one:                                              │
    │     SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA   │
    │ Let this new player join?                                │
    │                                                          │
    │ Or type or paste their fingerprint to check it.          │
    │                                                          │
    │ y accept · n refuse                                      │
    └──────────────────────────────────────────────────────────┘


     y accept · n refuse · or type the fingerprint
    """,
    "boardTooSmall60x20": """










             Terminal too small: need 50×26, have 60×20









    """,
  ]
}
