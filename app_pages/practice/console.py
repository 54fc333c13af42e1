"""The teacher's console: a live class's controls, off the projector (practice.console)."""

from attention_ui.practice import console

console.render()
