"""The few narrow errors the rules engine raises. All are ``ValueError``s."""


class RulesError(ValueError):
    """Base of every error the rules engine raises for bad input."""


class InvalidPositionError(RulesError):
    """A position that cannot arise in the variant (too many checkers, two colours on a point)."""


class InvalidIdError(RulesError):
    """A malformed Position ID, Match ID or XGID."""


class IllegalTurnError(RulesError):
    """A turn that is not legal for the position and roll."""


class UnknownVariantError(RulesError):
    """A variant name that is not in the registry."""


class UndefinedRuleError(RulesError):
    """A rule the sources name but never define (koks): the engine will not guess its score."""


class ResignationError(RulesError):
    """A resignation the variant cannot score (three points where there is no backgammon)."""


class CubeError(RulesError):
    """A cube action that is not allowed now ("dark owns the cube")."""


class MatchError(RulesError):
    """A match or money-session step that cannot happen (a game after the match is over)."""
