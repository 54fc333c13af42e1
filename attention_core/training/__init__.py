"""Training one attention head on a task whose right attention is known, with and without
the 1/sqrt(d_k) factor: ``tasks`` makes the data, ``trainer`` runs plain gradient descent
through ``attention_backward`` and keeps the history the Training lab draws."""

from attention_core.training.tasks import TASKS, TaskData, make_task
from attention_core.training.trainer import History, Training, TrainSettings, train, train_both

__all__ = [
    "TASKS",
    "History",
    "TaskData",
    "TrainSettings",
    "Training",
    "make_task",
    "train",
    "train_both",
]
