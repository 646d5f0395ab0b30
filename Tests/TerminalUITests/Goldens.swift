// Generated once from the renderer, then read line by line before committing: each is what the player
// should see. When a screen changes on purpose, update its golden here.
enum Goldens {
  static let screens: [String: String] = [
    "lobby80x24": """

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









     ↑↓/jk choose · Enter select · ? help · q quit
    """,
    "lobby40x12ascii": """

             T I C - T A C - T O E

       3x3, 3 in a row | computer: normal

         > Play the computer
           Two players on this keyboard
           Host a network game
           Join by address
           Options
           Quit
     Enter select | q quit
    """,
    "won80x24": """
     tictactoe  3×3, 3 in a row                               P1 1 · P2 0 · draws 0
     Two players take turns at this keyboard: P1 is X and moves first, P2 is O




                                     ┌───┬───┬───┐
                                     │ X │ X │ X │
                                     ├───┼───┼───┤
                                     │ O │ O │   │
                                     ├───┼───┼───┤
                                     │   │   │   │
                                     └───┴───┴───┘

                           X (P1) wins!  n new game · q menu








     ←↑↓→/hjkl move · Enter place · 1-9 place · u undo · n new · ? help · q back
    """,
    "won80x24ascii": """
     tictactoe  3x3, 3 in a row                               P1 1 | P2 0 | draws 0
     Two players take turns at this keyboard: P1 is X and moves first, P2 is O




                                     +---+---+---+
                                     | X | X | X |
                                     +---+---+---+
                                     | O | O |   |
                                     +---+---+---+
                                     |   |   |   |
                                     +---+---+---+

                           X (P1) wins!  n new game | q menu








     arrows/hjkl move | Enter place | 1-9 place | u undo | n new | ? help | q back
    """,
    "midgame40x12ascii": """
     tictactoe        P1 0 | P2 0 | draws 0
     Two players take turns at this keyb...

                    X  X  .
                    O [O] .
                    .  .  .

           O plays 5. X to move (P1)



     Enter place | ? help | q back
    """,
    "thinking15x15": """
     tictactoe  15×15, 5 in a row                      You 0 · Computer 0 · draws 0
     You play X against the computer (normal)

                a  b  c  d  e  f  g  h  i  j  k  l  m  n  o
            15  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·      1. h8
            14  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
            13  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
            12  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
            11  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
            10  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
             9  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
             8  ·  ·  ·  ·  ·  ·  · [X] ·  ·  ·  ·  ·  ·  ·
             7  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
             6  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
             5  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
             4  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
             3  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
             2  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
             1  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·

                               The computer is thinking…


     ←↑↓→/hjkl move · Enter place · u undo · n new · g go to · ? help · q back
    """,
    "options80x24": """

                                        Options


                             ▸ Board size      < 3×3 >
                               In a row (k)    < 3 >
                               Computer level  < normal >
                               Who starts      < me >
                               Your name       (your login name)
                               Keep records    < yes >
                               Opponent        < computer (no engine set) >
                               Clock           < none >
                               Rule            < freestyle >
                               Opening         < standard (swap2: k 5, 9×9 up) >

                               Back







     ↑↓ choose · ←→ change · Esc back
    """,
    "help80x24ascii": """
     tictactoe  3x3, 3 in a row                        You 0 | Computer 0 | draws 0
     You play X against the computer (normal)

               +--------------------------------------------------------+
               | Keys                                                   |
               |                                                        |
               | arrows, hjkl  move the cursor                          |
               | Enter, Space  place your mark                          |
               | 1-9           place on that cell (1 is top left)       |
               | mouse click   place on the clicked cell                |
               | u             undo your last move                      |
               | g             go to a cell: type it (h8), Enter        |
               | n             new game (asks first during a game)      |
               | q or Esc      back to the menu / quit (asks first too) |
               | ? or F1       this help                                |
               | Ctrl-L        draw the screen again                    |
               | Ctrl-C        quit at once                             |
               |                                                        |
               | Press any key to close.                                |
               +--------------------------------------------------------+



     arrows/hjkl move | Enter place | 1-9 place | u undo | n new | ? help | q back
    """,
    "tooSmall20x6": """



    Too small: need 30×9


    """,
    "leaveAsked80x24": """
     tictactoe  3×3, 3 in a row                        You 0 · Computer 0 · draws 0
     You play X against the computer (normal)




                                     ┌───┬───┬───┐
                                     │   │   │   │
                                     ├───┼───┼───┤
                ┌─────────────────────────────────────────────────────┐
                │ Leave this game?                                    │
                │ It is not finished: it will not be counted or kept. │
                │                                                     │
                │ y leave · n play on                                 │
                └─────────────────────────────────────────────────────┘








     y leave the game · n or Esc play on
    """,
  ]
}
