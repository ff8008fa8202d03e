"""``mantis web``: the app in a browser, one app process per tab (see ``server``)."""

#: Tabs (one app process each) ``mantis web`` serves at once unless told (``--max-tabs``).
MAX_TABS = 8
