"""irrcheck's modules: load measurements, derive statistics, check Träff's performance guidelines
(2017, Section 4) and render the paper's red-flagged tables and a violation report."""


class UserError(Exception):
    """A problem with the user's input or arguments: printed as one line, exit status 2."""
