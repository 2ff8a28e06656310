; One panel of 1,000,000 x 1,000,000 pixels: more than a panel may have (32768 along an
; axis, as -detpixels), refused when read, with the file, line and panel named.

clen = 0.100
res = 10000

huge/min_fs = 0
huge/max_fs = 999999
huge/min_ss = 0
huge/max_ss = 999999
huge/fs = +1.0x +0.0y
huge/ss = +0.0x -1.0y
huge/corner_x = -500000.0
huge/corner_y = 500000.0
