# tt: to be written
