"""Localized command names and descriptions: `L(key)` strings resolved from the catalogs by a Translator."""

from __future__ import annotations

import discord
from discord import app_commands

import i18n


def L(key: str) -> app_commands.locale_str:
    """A command string whose English text (the default Discord shows) comes from the catalog."""
    return app_commands.locale_str(i18n.catalog("en").get(key, key), key=key)


class CatalogTranslator(app_commands.Translator):
    """Answers Discord's Spanish locales from the Spanish catalog; English is the default text."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        key = string.extras.get("key")
        if not key:
            return None
        lang = i18n.lang_of(locale.value)
        if lang == "en":
            return None
        return i18n.catalog(lang).get(key)


def locale_of(interaction: discord.Interaction) -> str:
    """The user's language, then the server's, then English."""
    return i18n.lang_of(str(interaction.locale) if interaction.locale else None,
                        str(interaction.guild_locale) if interaction.guild_locale else None)
