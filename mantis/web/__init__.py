"""``mantis web``: the app in a browser, one app process per tab (see ``server``)."""
