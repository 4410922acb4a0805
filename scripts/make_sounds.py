"""Write the game's sound effects into assets/sounds: short mono 8-bit WAVs at 22,050 Hz,
each synthesized here from noise and tones with numpy (fixed seed: the same files every run).

    python scripts/make_sounds.py
"""

from __future__ import annotations

import wave
from collections.abc import Callable
from pathlib import Path

import numpy as np

RATE = 22_050
OUT = Path(__file__).resolve().parents[1] / "assets" / "sounds"
RNG = np.random.default_rng(14)


def seconds(length: float) -> np.ndarray:
    return np.arange(int(RATE * length)) / RATE


def noise(length: float) -> np.ndarray:
    return RNG.uniform(-1.0, 1.0, int(RATE * length))


def low_pass(signal: np.ndarray, strength: int) -> np.ndarray:
    """A moving average: the larger ``strength``, the duller the noise."""
    kernel = np.ones(strength) / strength
    return np.convolve(signal, kernel, mode="same")


def gun() -> np.ndarray:
    """A gun firing: a sharp crack and a low thump that dies in a quarter second."""
    t = seconds(0.28)
    crack = noise(0.28) * np.exp(-t * 40)
    thump = np.sin(2 * np.pi * 55 * t) * np.exp(-t * 12)
    return 0.6 * crack + 0.8 * thump


def incoming() -> np.ndarray:
    """A shell incoming: a whistle falling in pitch, growing louder."""
    t = seconds(0.45)
    pitch = 1400 - 900 * t / t[-1]
    phase = 2 * np.pi * np.cumsum(pitch) / RATE
    return 0.5 * np.sin(phase) * (0.2 + 0.8 * t / t[-1])


def impact() -> np.ndarray:
    """A shell's impact: dull rumbling noise with a fast attack."""
    t = seconds(0.4)
    return 1.4 * low_pass(noise(0.4), 12) * np.exp(-t * 9)


def armour() -> np.ndarray:
    """A hit on armour: a metallic clang of inharmonic partials."""
    t = seconds(0.3)
    partials = sum(np.sin(2 * np.pi * f * t) for f in (620, 1013, 1577, 2290))
    return 0.3 * partials * np.exp(-t * 14) + 0.3 * noise(0.3) * np.exp(-t * 60)


def destroyed() -> np.ndarray:
    """A unit destroyed: a long low explosion."""
    t = seconds(0.6)
    return 1.6 * low_pass(noise(0.6), 20) * np.exp(-t * 5) * (1 - np.exp(-t * 200))


def handover() -> np.ndarray:
    """The seat changes hands: two soft rising notes."""
    t = seconds(0.12)
    note = np.sin(2 * np.pi * np.outer((523.25, 659.25), np.ones_like(t)) * t)
    envelope = np.sin(np.pi * t / t[-1])
    return 0.5 * np.concatenate([note[0] * envelope, note[1] * envelope])


SOUNDS: dict[str, Callable[[], np.ndarray]] = {
    "gun": gun,
    "incoming": incoming,
    "impact": impact,
    "armour": armour,
    "destroyed": destroyed,
    "handover": handover,
}


def write(path: Path, signal: np.ndarray) -> None:
    """Unsigned 8-bit mono PCM: a few KB a sound, plenty for short effects."""
    samples = np.clip(signal, -1.0, 1.0)
    data = np.round(samples * 127 + 128).astype(np.uint8)
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(RATE)
        out.writeframes(data.tobytes())


def main(out: Path = OUT) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, make in SOUNDS.items():
        path = out / f"{name}.wav"
        write(path, make())
        print(f"{path}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
