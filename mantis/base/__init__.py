"""What every layer may use, and which uses nothing else of Mantis: time handed in
(``clock``), outside text made safe to print (``printable``), files written atomically
(``atomic``) and locked (``file_lock``), and where the app writes (``paths``)."""
