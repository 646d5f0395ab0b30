// Generated once from the renderer, then read line by line before committing: each is what the player
// should see. When a screen changes on purpose, update its golden here.
enum NetworkGoldens {
  static let screens: [String: String] = [
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
     ←↑↓→/hjkl move · Enter place · c chat · R resign · ? help · q leave
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
      7  .  .  .  .  .  O  X  X  X  X  O  .  .  .  .   · Game 4: you play X and
      6  .  .  .  .  .  .  X  O  .  .  .  .  .  .  .     move first.
      5  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .   Bartholomew-Fitzgerald-Mcall
      4  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     iste: that was a clever
      3  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     opening, but wait until
      2  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     you see what I do on the
      1  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .     long diagonal from a1 to
                                                         o15 next game
                                                       you: gl hf
     arrows/hjkl move | Enter place | c chat | R resign | ? help | q leave
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
     ←↑↓→/hjkl move · Enter place · c chat · R resign · ? help · q leave
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
