"""tools/dat3m - an evaluation of Dat3M's PTX cat models independent of ptxlitmus's engine, and the
random tests it is compared on (tools/dat3m/check.py)."""
