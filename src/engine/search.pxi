# search: to be written
