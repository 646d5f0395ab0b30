/// The spectator's screens as drawn at 80×24 (`WatchScreenTests`), looked at line by line when made.
enum WatchScreenGoldens {
  static let fifteen = """
     tictactoe                                            alice 1 · bob 0 · draws 0
     Watching game 2: bob (X) SHA256:Zz9Yy8Xx7Ww6 vs alice (O) SHA256:q8W1r4c0ZkQm

         a  b  c  d  e  f  g  h  i  j  k  l  m  n  o   bob 4:32 · ▸alice 5:00 (5+3)
     15  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   bob plays i9. alice (O) to
     14  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   move.
     13  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·   3 watching
     12  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
     11  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·     1. h8  h9     2. i9
     10  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
      9  ·  ·  ·  ·  ·  ·  ·  O  X  ·  ·  ·  ·  ·  ·
      8  ·  ·  ·  ·  ·  ·  ·  X  ·  ·  ·  ·  ·  ·  ·
      7  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
      6  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
      5  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
      4  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
      3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
      2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
      1  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·


                                                       · Game 2, a rematch: bob (X)
                                                         against alice (O).
     c chat with spectators · PgUp/PgDn scroll · ? help · q leave
    """
  static let three = """
     tictactoe                                            alice 1 · bob 0 · draws 0
     Watching game 2: bob (X) SHA256:Zz9Yy8Xx7Ww6 vs alice (O) SHA256:q8W1r4c0ZkQm

                                     ┌───┬───┬───┐
                                     │   │   │   │
                                     ├───┼───┼───┤
                                     │ O │ O │   │
                                     ├───┼───┼───┤
                                     │ X │ X │ X │
                                     └───┴───┴───┘

           bob (X) wins with a line. Waiting to see whether they play again.
                                       3 watching









     · Game 2, a rematch: bob (X) against alice (O).
     c chat with spectators · PgUp/PgDn scroll · ? help · q leave
    """
}
