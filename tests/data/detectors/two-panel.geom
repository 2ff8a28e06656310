; A two-panel detector written by hand for braggview's tests, in the form CrystFEL
; geometry files take (crystfel_geometry(5)). 100 um pixels (res = 10000 pixels per metre).
; The second panel is turned by 90 degrees and sits 2 mm further down the beam, as
; refined tiles of a CSPAD do.

photon_energy = 9500
adu_per_eV = 0.0042
clen = 0.100
res = 10000
data = /entry/data/data
dim0 = %
dim1 = ss
dim2 = fs

; top: the first 50 rows of the data, x to the right, rows running down
top/min_fs = 0
top/max_fs = 99
top/min_ss = 0
top/max_ss = 49
top/fs = +1.0x +0.0y
top/ss = +0.0x -1.0y
top/corner_x = -50.0
top/corner_y = 60.0

; side: the next 50 rows, fast scan running down, slow scan to the left
side/min_fs = 0
side/max_fs = 99
side/min_ss = 50
side/max_ss = 99
side/fs = +0.0x -1.0y
side/ss = -1.0x +0.0y
side/corner_x = 25.0
side/corner_y = -5.0
side/coffset = 0.002

rigid_group_all = top,side
rigid_group_collection_det = all

bad_beamstop/min_x = -3.0
bad_beamstop/max_x = 3.0
bad_beamstop/min_y = -3.0
bad_beamstop/max_y = 3.0
