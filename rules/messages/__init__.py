"""Message catalogues: the plain-language reasons, in the languages of our rule texts."""

from rules.messages.catalogue import Catalogue
from rules.messages.en import MESSAGES as EN
from rules.messages.he import MESSAGES as HE
from rules.messages.nl import MESSAGES as NL

CATALOGUES: dict[str, Catalogue] = {"en": EN, "he": HE, "nl": NL}

__all__ = ["CATALOGUES", "Catalogue"]
