// A plan thread that never answers: the pool must plan on the main thread and not restart it.
throw new Error('this plan thread fails as it starts');
