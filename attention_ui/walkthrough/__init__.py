"""The walkthrough section (Inputs to Output): the scenario editor and the frame of a stage page."""
