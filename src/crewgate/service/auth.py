"""Who may do what on the operator service: bearer tokens with roles, stored hashed.

Roles, each with the rights of the one before:

- ``viewer``: read everything (crew, robots, missions, events), check plans, engage the e-stop;
- ``operator``: + submit missions, approve, reject, cancel;
- ``admin``: + release the e-stop, read the access log.

A token file holds one user per line, ``NAME ROLE sha256:HEX`` (``crewgate token`` writes them;
``#`` starts a comment); the token itself is never stored. ``$CREWGATE_TOKENS`` may also hold
``NAME:ROLE:TOKEN`` entries separated by ``;`` (the environment is the secret store there); they
are hashed as they are read. Tokens are 256-bit random strings, so one SHA-256 is enough: there
is nothing to guess that a slow hash would protect.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from crewgate.errors import UserError

Role = Literal["viewer", "operator", "admin"]
ROLES: tuple[Role, ...] = ("viewer", "operator", "admin")
MAX_FILE = 1 << 20  # a token file is a few lines; a megabyte is not a token file
NAME = re.compile(r"[A-Za-z0-9_.@-]{1,64}")
HASH = re.compile(r"sha256:[0-9a-f]{64}")
ENV = "CREWGATE_TOKENS"


@dataclass(frozen=True, slots=True)
class User:
    name: str
    role: Role

    def may(self, role: Role) -> bool:
        """Whether this user has the rights of ``role``."""
        return ROLES.index(self.role) >= ROLES.index(role)


def digest(token: str) -> str:
    return "sha256:" + hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


class Tokens:
    """The users a service knows, by the hash of their token."""

    def __init__(self, users: dict[str, User] | None = None) -> None:
        self._by_hash: dict[str, User] = dict(users or {})

    def __len__(self) -> int:
        return len(self._by_hash)

    def add(self, token_hash: str, user: User) -> None:
        if not HASH.fullmatch(token_hash):
            raise UserError(f"a token hash is sha256: and 64 hex digits, not {token_hash[:80]!r}")
        self._by_hash[token_hash] = user

    def who(self, token: str) -> User | None:
        """The user a presented token belongs to, or None."""
        if not token or len(token) > 512:
            return None
        presented = digest(token)
        found = None
        for known, user in self._by_hash.items():  # constant time per entry
            if hmac.compare_digest(known, presented):
                found = user
        return found

    def users(self) -> list[User]:
        return sorted(set(self._by_hash.values()), key=lambda u: (u.name, u.role))

    @classmethod
    def load(cls, path: Path | None, env: str | None = None) -> Tokens:
        """The users of a token file and of ``$CREWGATE_TOKENS`` (``env``: its value)."""
        tokens = cls()
        if path is not None:
            for lineno, user, token_hash in parse_file(path):
                try:
                    tokens.add(token_hash, user)
                except UserError as exc:
                    raise UserError(f"{path}:{lineno}: {exc}") from exc
        for user, token in parse_env(env if env is not None else os.environ.get(ENV, "")):
            tokens.add(digest(token), user)
        return tokens


def parse_file(path: Path) -> list[tuple[int, User, str]]:
    try:
        size = path.stat().st_size
        if size > MAX_FILE:
            raise UserError(f"token file {path} is {size} bytes; a token file is one line per "
                            f"user (at most {MAX_FILE} bytes)")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read token file {path}: {exc}; write one with "
                        "`crewgate token NAME --role ROLE --file PATH`") from exc
    entries = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) != 3:
            raise UserError(f"{path}:{lineno}: a token line is NAME ROLE sha256:HEX, not "
                            f"{len(parts)} field(s); write one with `crewgate token`")
        name, role, token_hash = parts
        if not HASH.fullmatch(token_hash):
            raise UserError(f"{path}:{lineno}: the third field must be the token's hash "
                            "(sha256:HEX), never the token itself; write it with "
                            "`crewgate token`")
        entries.append((lineno, User(_name(name, f"{path}:{lineno}"),
                                     _role(role, f"{path}:{lineno}")), token_hash))
    return entries


def parse_env(value: str) -> list[tuple[User, str]]:
    if len(value) > MAX_FILE:
        raise UserError(f"${ENV} is longer than {MAX_FILE} characters")
    entries = []
    for i, item in enumerate(p.strip() for p in value.split(";")):
        if not item:
            continue
        parts = item.split(":", 2)
        if len(parts) != 3 or len(parts[2]) < 16:
            raise UserError(f"${ENV} entry {i + 1}: write NAME:ROLE:TOKEN with a token of at "
                            "least 16 characters (entries separated by ;)")
        name, role, token = parts
        entries.append((User(_name(name, f"${ENV} entry {i + 1}"),
                             _role(role, f"${ENV} entry {i + 1}")), token))
    return entries


def token_line(name: str, role: str, token: str) -> str:
    """The token file's line for a new user (the token's hash, never the token)."""
    return f"{_name(name, 'NAME')} {_role(role, '--role')} {digest(token)}\n"


def _name(name: str, where: str) -> str:
    if not NAME.fullmatch(name):
        raise UserError(f"{where}: a user name is 1-64 letters, digits or _.@-, not {name[:80]!r}")
    return name


def _role(role: str, where: str) -> Role:
    for known in ROLES:
        if role == known:
            return known
    raise UserError(f"{where}: role {role[:40]!r} is not one of {', '.join(ROLES)}")


__all__ = ["ROLES", "Role", "Tokens", "User", "digest", "new_token", "token_line"]
