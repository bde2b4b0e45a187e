def fit(model, batches, optimizer):
    for x, y in batches:
        optimizer.zero_grad()
        loss = -(model(x)[range(len(y)), y] + 1e-6).log().mean()
        loss.backward()
        optimizer.step()
