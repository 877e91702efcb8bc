# movepick: to be written
