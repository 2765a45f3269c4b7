# Hex regression suite in the Benzene / gogui-regress style: a numbered
# command followed by "#? [expected]" (the expected answer, a regular
# expression in gogui-regress; here matched literally). Run by
# tests/hex_regression.rs through `renyi-search gtp`.
#
# dfpn-solve-state COLOUR answers the winner with COLOUR to move.
# Expected answers: 3x3 and 4x4 from plain exhaustive minimax
# (src/connection/hex/plain.rs, asserted in tests/hex_solver.rs: the 3x3
# winning openings c1 a2 b2 c2 a3, the 4x4 ones on the short diagonal
# d1 c2 b3 a4); 5x5: the centre opening wins and the acute corner a1 loses
# for the first player (the published maps of small boards; hexwiki
# "Small boards", Queenbee's opening page), confirmed by the proofs that
# `reproduce hex --full` replays.

boardsize 3 3
play b b2
10 dfpn-solve-state white
#? [black]

clear_board
play b a1
11 dfpn-solve-state white
#? [white]

clear_board
play b c1
12 dfpn-solve-state white
#? [black]

boardsize 4 4
play b d1
20 dfpn-solve-state white
#? [black]

clear_board
play b b3
21 dfpn-solve-state white
#? [black]

clear_board
play b b2
22 dfpn-solve-state white
#? [white]

clear_board
play b a1
23 dfpn-solve-state white
#? [white]

# The empty 4x4 board: the first player wins, whoever that is.
clear_board
24 dfpn-solve-state black
#? [black]

25 dfpn-solve-state white
#? [white]

boardsize 5 5
play b c3
30 dfpn-solve-state white
#? [black]

clear_board
play b a1
31 dfpn-solve-state white
#? [white]

# A won position stays won after undo and replay.
play w c3
undo
32 dfpn-solve-state white
#? [white]
