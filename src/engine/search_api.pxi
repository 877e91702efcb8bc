# search_api: to be written
