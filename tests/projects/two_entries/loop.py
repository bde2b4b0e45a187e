"""The loop both launch scripts share."""


def fit(model, batches, optimizer, loss_fn):
    for x, y in batches:
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
