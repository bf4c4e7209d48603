"""The message catalogues (:mod:`tapete.core.catalog`, under the name the narrator has used):
English source strings are the message ids; every other language is a gettext ``.po`` file,
``locale/<lang>/LC_MESSAGES/tapete.po`` beside this module, read at run time with Babel.

The machinery lives in the core so that the engine, which may not import this package, takes
its messages from the same catalogue; this module re-exports it.
"""

from __future__ import annotations

from tapete.core.catalog import (
    DOMAIN,
    N_,
    NC_,
    SOURCE,
    Arg,
    Catalogue,
    catalogue,
    gettext_in,
    locale_dir,
    ngettext_in,
    reload,
    t,
    tc,
    tn,
)

__all__ = [
    "DOMAIN",
    "NC_",
    "SOURCE",
    "Arg",
    "Catalogue",
    "N_",
    "catalogue",
    "gettext_in",
    "locale_dir",
    "ngettext_in",
    "reload",
    "t",
    "tc",
    "tn",
]
