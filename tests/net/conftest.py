"""The network tests import their kit (``netkit``) from this folder."""
